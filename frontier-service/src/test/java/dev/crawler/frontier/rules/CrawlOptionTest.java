package dev.crawler.frontier.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.schemas.options.RequestOption;
import dev.crawler.schemas.options.RequestOptions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CrawlOptionTest {

  @Test
  void carriesExactlyTheCatalogueOptionsWithTheirDefaults() {
    List<CrawlOption<?>> carried =
        CrawlOption.all().values().stream().filter(CrawlOption::isCarriedByRequests).toList();
    Set<String> catalogue = new TreeSet<>(RequestOptions.all().keySet());
    // the frontier writes it itself: no configuration sets it
    catalogue.remove(RequestOptions.CONFIG_VERSION.name());

    assertThat(carried)
        .extracting(CrawlOption::name)
        .containsExactlyInAnyOrderElementsOf(catalogue);
    for (CrawlOption<?> option : carried) {
      RequestOption<?> wire = RequestOptions.named(option.name()).orElseThrow();
      assertThat((Object) option.defaultValue()).as(option.name()).isEqualTo(wire.defaultValue());
      assertThat(option.level()).isEqualTo(CrawlOption.Level.URL);
    }
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "delay-ms                   | 250",
        "max-connections-per-origin | 16",
        "obey-robots-txt            | false",
        "redirects                  | follow 7",
        "redirects                  | record",
        "head                       | required",
        "content-types              | text/html, Text/*",
        "max-content-length         | 4096",
        "canonical-scope            | any",
        "checksum-ignore            | footer .clock",
        "metadata-checksum          | ETag last-modified",
        "pagination                 | rel=next",
      })
  void aConfiguredValueReachesTheServicesAsConfigured(String name, String configured) {
    CrawlOption<?> option = CrawlOption.named(name).orElseThrow();
    Object value = option.parse(configured);

    String carried = option.toRequestValue(value);

    Object read = RequestOptions.named(name).orElseThrow().readFrom(Map.of(name, carried));
    assertThat(read).isEqualTo(value);
  }

  @Test
  void refusesToWriteAnOptionRequestsDoNotCarry() {
    assertThat(CrawlOption.SCOPE.isCarriedByRequests()).isFalse();
    assertThatThrownBy(() -> CrawlOption.SCOPE.toRequestValue(CrawlOption.Scope.HOST))
        .isInstanceOf(IllegalStateException.class);
  }
}
