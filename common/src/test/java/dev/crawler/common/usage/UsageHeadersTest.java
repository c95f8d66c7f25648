package dev.crawler.common.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UsageHeadersTest {

  private static final String AGENT = "kafka-crawler";

  @ParameterizedTest(name = "{0}: {1} -> [{3}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        // header                | value                                | source               |
        // states
        "content-usage           | train-ai=n                           | HTTP_CONTENT_USAGE   | ai-training=n genai-training=n",
        "Content-Usage           | 'train-ai=y, search=y, x-new=?1'     | HTTP_CONTENT_USAGE   | ai-training=y genai-training=y search=y",
        "tdm-reservation         | 1                                    | TDMREP_HEADER        | ai-training=n genai-training=n tdm=n",
        "TDM-Reservation         | ' 0 '                                | TDMREP_HEADER        | ai-training=y genai-training=y tdm=y",
        "tdm-reservation         | '1, 1'                               | TDMREP_HEADER        | ai-training=n genai-training=n tdm=n",
        "tdm-reservation         | '0, 1'                               | TDMREP_HEADER        | ai-training=n genai-training=n tdm=n",
        "x-robots-tag            | noai                                 | X_ROBOTS_TAG         | ai-training=n genai-training=n image-ai-training=n",
        "X-Robots-Tag            | 'noindex, noimageai'                 | X_ROBOTS_TAG         | image-ai-training=n",
        "x-robots-tag            | 'NoAI, NoImageAI'                    | X_ROBOTS_TAG         | ai-training=n genai-training=n image-ai-training=n",
        "x-robots-tag            | 'kafka-crawler: noai'                | X_ROBOTS_TAG         | ai-training=n genai-training=n image-ai-training=n",
        "x-robots-tag            | 'unavailable_after: 25 Jun 2010 15:00:00 PST, noai' | X_ROBOTS_TAG | ai-training=n genai-training=n image-ai-training=n",
      })
  void readsEachHeader(String name, String value, UsageSource source, String expected) {
    UsageFindings findings = UsageHeaders.read(Map.of(name, value), AGENT);

    assertThat(findings.problems()).isEmpty();
    assertThat(findings.statements())
        .singleElement()
        .extracting(UsageStatement::source)
        .isEqualTo(source);
    assertThat(EffectsText.of(findings)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "[{0}]")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "otherbot: noai",
        "'otherbot: noai, noimageai'",
        "'noindex, nofollow'",
        "'noarchive, max-snippet: 50'",
        "'googlebot: noindex, otherbot: noai'",
      })
  void aDirectiveForAnotherCrawlerOrNoAiDirectiveStatesNothing(String value) {
    assertThat(UsageHeaders.read(Map.of("x-robots-tag", value), AGENT).isEmpty()).isTrue();
  }

  @Test
  void aGenericSectionAndOursMakeOneStatementEach() {
    UsageFindings findings =
        UsageHeaders.read(
            Map.of("x-robots-tag", "noimageai, otherbot: noindex, kafka-crawler: noai"), AGENT);

    assertThat(findings.statements())
        .extracting(UsageStatement::scope)
        .containsExactly("", "agent=kafka-crawler");
    assertThat(EffectsText.of(findings))
        .isEqualTo("image-ai-training=n | ai-training=n genai-training=n image-ai-training=n");
  }

  @Test
  void keepsTheTdmRepPolicyWithTheReservation() {
    UsageFindings findings =
        UsageHeaders.read(
            Map.of(
                "tdm-reservation", "1", "tdm-policy", "https://provider.example/policies/p.json"),
            AGENT);

    UsageStatement statement = findings.statements().get(0);
    assertThat(statement.terms())
        .containsExactly(
            Map.entry("tdm-reservation", "1"),
            Map.entry("tdm-policy", "https://provider.example/policies/p.json"));
    assertThat(statement.raw())
        .contains("tdm-reservation: 1")
        .contains("tdm-policy: https://provider.example/policies/p.json");
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\'',
      value = {
        "content-usage   | 'train-ai=n,'      | HTTP_CONTENT_USAGE | not a structured field dictionary",
        "content-usage   | Train-AI=n         | HTTP_CONTENT_USAGE | not a structured field dictionary",
        "content-usage   | 'train-ai=n x'     | HTTP_CONTENT_USAGE | not a structured field dictionary",
        "tdm-reservation | yes                | TDMREP_HEADER      | tdm-reservation is neither 0 nor 1",
        "tdm-reservation | 2                  | TDMREP_HEADER      | tdm-reservation is neither 0 nor 1",
        "tdm-reservation | ''                 | TDMREP_HEADER      | tdm-reservation is neither 0 nor 1",
      })
  void reportsAndIgnoresAMalformedHeader(
      String name, String value, UsageSource source, String problem) {
    UsageFindings findings = UsageHeaders.read(Map.of(name, value), AGENT);

    assertThat(findings.statements()).isEmpty();
    assertThat(findings.problems())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.source()).isEqualTo(source);
              assertThat(p.message()).startsWith(problem);
            });
  }

  @Test
  void aHeaderOverTheLimitIsReportedAndIgnored() {
    String value = "train-ai=n" + ", x=y".repeat(UsageHeaders.MAX_HEADER_CHARS);

    UsageFindings findings = UsageHeaders.read(Map.of("content-usage", value), AGENT);

    assertThat(findings.statements()).isEmpty();
    assertThat(findings.problems().get(0).message()).startsWith("content-usage longer than 8192");
  }

  @Test
  void readsAllTheSourcesOfOneResponse() {
    Map<String, String> headers =
        Map.of(
            "content-type", "text/html",
            "content-usage", "search=y",
            "tdm-reservation", "1",
            "x-robots-tag", "noimageai");

    UsageFindings findings = UsageHeaders.read(headers, AGENT);

    assertThat(findings.statements())
        .extracting(UsageStatement::source)
        .containsExactlyInAnyOrder(
            UsageSource.HTTP_CONTENT_USAGE, UsageSource.TDMREP_HEADER, UsageSource.X_ROBOTS_TAG);
  }

  @Test
  void responseWithoutUsageHeadersStatesNothing() {
    assertThat(UsageHeaders.read(Map.of("content-type", "text/html"), AGENT).isEmpty()).isTrue();
  }
}
