package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PublishDatesTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "<meta property=\"article:published_time\" content=\"2019-09-10T12:00:00+02:00\">                 | 2019-09-10T10:00:00Z",
        "<script type=\"application/ld+json\">{\"@type\":\"NewsArticle\",\"datePublished\": \"2019-09-09\"}</script> | 2019-09-09T00:00:00Z",
        "<time datetime=\"2019-09-08T07:30:00\">Sunday</time>                                            | 2019-09-08T07:30:00Z",
        "<meta property=\"article:published_time\" content=\"soon\"><time datetime=\"2019-01-02\">x</time> | 2019-01-02T00:00:00Z",
        "<time>no datetime</time>                                                                          | ",
        "<p>nothing</p>                                                                                    | ",
      })
  void findsThePublishDateWherePublishersPutIt(String html, String expected) {
    Optional<Instant> date = PublishDates.of(Jsoup.parse("<html><head></head><body>" + html + "</body></html>"));

    assertThat(date).isEqualTo(Optional.ofNullable(expected).map(Instant::parse));
  }

  @ParameterizedTest
  @CsvSource({"2019-09-10T12:00:00Z, 2019-09-10T12:00:00Z", "2019-09-10, 2019-09-10T00:00:00Z", "'  2019-09-10T12:00:00.5+00:00 ', 2019-09-10T12:00:00.500Z"})
  void readsIso8601(String text, Instant expected) {
    assertThat(PublishDates.parse(text)).contains(expected);
  }
}
