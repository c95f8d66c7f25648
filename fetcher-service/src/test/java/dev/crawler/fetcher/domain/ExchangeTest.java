package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.fetcher.domain.Exchange.Truncation;
import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExchangeTest {

  @ParameterizedTest
  @CsvSource({
    "TOO_LARGE, length",
    "TIMEOUT, time",
    "BROKEN_RESPONSE, disconnect",
    "PROTOCOL_ERROR, unspecified",
    "REJECTED_METADATA, unspecified",
    "BUDGET_SPENT, unspecified"
  })
  void namesWhyABodyIsNotWholeInWarcWords(FailureKind failure, String warcTruncated) {
    assertThat(Truncation.of(failure).warcName()).isEqualTo(warcTruncated);
  }
}
