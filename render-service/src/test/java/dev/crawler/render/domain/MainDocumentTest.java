package dev.crawler.render.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.render.domain.MainDocument.Disposition;
import dev.crawler.render.domain.MainDocument.ReturnAsIs;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MainDocumentTest {

  @ParameterizedTest(name = "{0} {1} → {5}")
  @CsvSource(
      delimiter = '|',
      value = {
        // status | Content-Type | Location | followed | max | disposition or reason
        "200 | text/html; charset=utf-8 | ''   | 0 | 0 | render",
        "200 | TEXT/HTML                | ''   | 0 | 0 | render",
        "203 | application/xhtml+xml    | ''   | 0 | 0 | render",
        "200 | application/pdf          | ''   | 0 | 0 | not HTML: application/pdf",
        "200 | ''                       | ''   | 0 | 0 | no Content-Type",
        "204 | text/html                | ''   | 0 | 0 | status 204",
        "304 | text/html                | ''   | 0 | 0 | status 304",
        "404 | text/html                | ''   | 0 | 0 | status 404",
        "503 | text/html                | ''   | 0 | 0 | status 503",
        "301 | text/html                | /b   | 0 | 1 | follow",
        "302 | ''                       | /b   | 1 | 2 | follow",
        "307 | ''                       | /b   | 2 | 2 | 'a redirect (307), not followed'",
        "308 | ''                       | /b   | 0 | 0 | 'a redirect (308), not followed'",
        "302 | ''                       | ''   | 0 | 5 | a redirect without a Location",
      })
  void judgesTheMainDocumentsResponse(
      int status, String contentType, String location, int followed, int max, String expected) {
    Disposition disposition = MainDocument.judge(status, contentType, location, followed, max);

    String actual =
        disposition instanceof ReturnAsIs asIs
            ? asIs.reason()
            : disposition instanceof MainDocument.FollowRedirect ? "follow" : "render";
    assertThat(actual).isEqualTo(expected);
  }
}
