package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PageTest {

  @ParameterizedTest(name = "declared [{0}], body {1} -> {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          text/html                   | x                                | text/html
          'Text/HTML; charset=UTF-8'  | x                                | text/html
          ' application/xhtml+xml '   | x                                | application/xhtml+xml
          image/png                   | <html>                           | image/png
          ''                          | <!DOCTYPE HTML><p>               | text/html
                                      | <!doctype html><p>               | text/html
                                      | '\\n\\n  <HTML lang=en>'         | text/html
                                      | <!-- a comment --><head>         | text/html
                                      | \\ufeff<html>                    | text/html
                                      | <?xml version="1.0"?><!DOCTYPE html><html> | text/html
                                      | <?xml version="1.0"?><rss>       | application/xml
                                      | plain words                      |
                                      | %PDF-1.7                         | application/pdf
                                      | '{\\rtf1\\ansi'                  | application/rtf
          application/octet-stream    | %PDF-1.7                         | application/pdf
          'application/octet-stream; x=y' | x                            | application/octet-stream
          application/zip             | %PDF-1.7                         | application/zip
          """)
  void knowsItsMediaTypeDeclaredOrRecognized(String declared, String body, String expected) {
    byte[] bytes =
        body.replace("\\n", "\n").replace("\\ufeff", "\uFEFF").getBytes(StandardCharsets.UTF_8);

    Page page =
        new Page(
            "http://a.example/", Map.of(), bytes, Optional.ofNullable(declared), Optional.empty());

    assertThat(page.mediaType()).isEqualTo(Optional.ofNullable(expected));
  }

  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          UTF-8          | UTF-8
          iso-8859-1     | ISO-8859-1
          '"utf-8"'      | UTF-8
          ' latin1 '     | ISO-8859-1
          no-such-thing  |
          'bad name!'    |
          ''             |
                         |
          """)
  void knowsTheCharsetItDeclaredWhenTheRuntimeSupportsIt(String declared, String expected) {
    Page page =
        new Page(
            "http://a.example/",
            Map.of(),
            new byte[] {'x'},
            Optional.of("text/html"),
            Optional.ofNullable(declared));

    assertThat(page.declaredCharset())
        .isEqualTo(Optional.ofNullable(expected).map(Charset::forName));
  }

  @ParameterizedTest(name = "{0} declared {1} -> binary {2}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          3c68746d6c3e       |          | false
          89504e470d0a1a0a00 |          | true
          3c700000           | UTF-8    | true
          003c0070           | UTF-16BE | false
          3c000000           | utf-32le | false
          feff003c0070       |          | false
          fffe3c007000       |          | false
          """)
  void knowsABinaryBodyByItsNulBytes(String hex, String charset, boolean binary) {
    Page page =
        new Page(
            "http://a.example/",
            Map.of(),
            HexFormat.of().parseHex(hex),
            Optional.of("text/html"),
            Optional.ofNullable(charset));

    assertThat(page.isBinary()).isEqualTo(binary);
  }

  @Test
  void looksUpHeadersWhateverTheirCase() {
    Page page =
        new Page(
            "http://a.example/",
            Map.of("etag", "\"v1\"", "Last-Modified", "Mon, 01 Jan 2024 00:00:00 GMT"),
            new byte[0],
            Optional.empty(),
            Optional.empty());

    assertThat(page.header("ETag")).contains("\"v1\"");
    assertThat(page.header("last-modified")).contains("Mon, 01 Jan 2024 00:00:00 GMT");
    assertThat(page.header("Link")).isEmpty();
  }
}
