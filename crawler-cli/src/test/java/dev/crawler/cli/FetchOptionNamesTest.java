package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.fetcher.domain.FetchOptions;
import dev.crawler.frontier.rules.CrawlOption;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fetcher reads options by name from fetch requests; the frontier's catalogue must define each
 * of them.
 */
class FetchOptionNamesTest {

  @Test
  void everyOptionTheFetcherReadsIsACrawlOption() throws IllegalAccessException {
    List<String> names = new ArrayList<>();
    for (Field field : FetchOptions.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
        names.add((String) field.get(null));
      }
    }

    assertThat(names).hasSizeGreaterThan(8);
    assertThat(CrawlOption.all().keySet()).containsAll(names);
  }

  @Test
  void theCatalogueDefaultsAreTheFetcherDefaults() {
    FetchOptions defaults = FetchOptions.defaults(CrawlOption.DELAY_MS.defaultValue(), true);

    assertThat(defaults.maxConnections())
        .isEqualTo(CrawlOption.MAX_CONNECTIONS_PER_ORIGIN.defaultValue());
    assertThat(defaults.maxCrawlDelayMillis())
        .isEqualTo(CrawlOption.MAX_CRAWL_DELAY_MS.defaultValue());
    assertThat(defaults.maxBackoffMillis()).isEqualTo(CrawlOption.MAX_BACKOFF_MS.defaultValue());
    assertThat(defaults.patience()).isEqualTo(CrawlOption.PATIENCE.defaultValue());
    assertThat(defaults.pauseMillis()).isEqualTo(CrawlOption.PAUSE_MS.defaultValue());
    assertThat(defaults.maxContentLength())
        .isEqualTo(CrawlOption.MAX_CONTENT_LENGTH.defaultValue());
  }
}
