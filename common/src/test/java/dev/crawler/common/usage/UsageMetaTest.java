package dev.crawler.common.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UsageMetaTest {

  private static final String AGENT = "kafka-crawler";

  @ParameterizedTest(name = "<meta name={0} content={1}> -> [{3}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "tdm-reservation | 1                  | TDMREP_META | ai-training=n genai-training=n tdm=n",
        "TDM-Reservation | 0                  | TDMREP_META | ai-training=y genai-training=y tdm=y",
        "robots          | noai               | ROBOTS_META | ai-training=n genai-training=n image-ai-training=n",
        "Robots          | 'noindex,noimageai'| ROBOTS_META | image-ai-training=n",
        "robots          | 'noai noimageai'   | ROBOTS_META | ai-training=n genai-training=n image-ai-training=n",
        "kafka-crawler   | noai               | ROBOTS_META | ai-training=n genai-training=n image-ai-training=n",
      })
  void readsEachMetaTag(String name, String content, UsageSource source, String expected) {
    UsageFindings findings = UsageMeta.read(List.of(new MetaTag(name, content)), AGENT);

    assertThat(findings.problems()).isEmpty();
    assertThat(findings.statements())
        .singleElement()
        .extracting(UsageStatement::source)
        .isEqualTo(source);
    assertThat(EffectsText.of(findings)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "<meta name={0} content={1}>")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "otherbot    | noai",
        "googlebot   | 'noai, noimageai'",
        "robots      | 'noindex, nofollow'",
        "description | noai",
      })
  void aTagForAnotherCrawlerOrWithoutNoAiStatesNothing(String name, String content) {
    assertThat(UsageMeta.read(List.of(new MetaTag(name, content)), AGENT).isEmpty()).isTrue();
  }

  @Test
  void theTdmRepTagsOfAPageMakeOneStatementWithThePolicy() {
    UsageFindings findings =
        UsageMeta.read(
            List.of(
                new MetaTag("tdm-reservation", "1"),
                new MetaTag("tdm-policy", "https://provider.example/policies/policy.json")),
            AGENT);

    assertThat(findings.statements()).hasSize(1);
    assertThat(findings.statements().get(0).terms())
        .containsEntry("tdm-reservation", "1")
        .containsEntry("tdm-policy", "https://provider.example/policies/policy.json");
  }

  @Test
  void anAgentTagIsScopedToTheAgent() {
    UsageStatement statement =
        UsageMeta.read(List.of(new MetaTag("Kafka-Crawler", "noai")), AGENT).statements().get(0);

    assertThat(statement.scope()).isEqualTo("agent=kafka-crawler");
    assertThat(statement.raw()).isEqualTo("noai");
  }

  @ParameterizedTest(name = "tdm-reservation={0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {"yes", "''", "true", "01"})
  void reportsAReservationThatIsAProtocolError(String content) {
    UsageFindings findings =
        UsageMeta.read(List.of(new MetaTag("tdm-reservation", content)), AGENT);

    assertThat(findings.statements()).isEmpty();
    assertThat(findings.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.source()).isEqualTo(UsageSource.TDMREP_META);
              assertThat(p.message()).startsWith("tdm-reservation is neither 0 nor 1");
            });
  }

  @Test
  void aPageWithoutUsageTagsStatesNothing() {
    assertThat(
            UsageMeta.read(
                    List.of(new MetaTag("description", "a page"), new MetaTag("robots", "index")),
                    AGENT)
                .isEmpty())
        .isTrue();
  }
}
