package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RenderingNeedTest {

  private static final String SCRIPT = "<script src=\"/app.js\"></script>";

  /** Stands for a long paragraph in a table row. */
  private static final String TEXT = "{long text}";

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "an empty app root | <div id=\"app\"></div>"
            + SCRIPT
            + " | an empty application root (div#app)",
        "an empty next.js root | <div id=\"__next\"></div>"
            + SCRIPT
            + " | an empty application root (div#__next)",
        "an angular root | <app-root></app-root>"
            + SCRIPT
            + " | an empty application root (app-root)",
        "a noscript | <noscript>You need to enable JavaScript to run this app.</noscript><div id=\"main\">Loading</div>"
            + SCRIPT
            + " | a noscript asking for JavaScript",
        "a noscript saying JavaScript is off and asking for it, beside a menu | <noscript>JavaScript"
            + " is disabled. Please enable it to continue.</noscript><nav><a href=\"/a\">a</a><a"
            + " href=\"/b\">b</a><a href=\"/c\">c</a><a href=\"/d\">d</a></nav><div id=\"main\"></div>"
            + SCRIPT
            + " | a noscript asking for JavaScript",
        "a noscript saying JavaScript is off, and nothing else | <noscript><div>JavaScript is"
            + " disabled on your browser.</div></noscript><div id=\"main\"></div>"
            + SCRIPT
            + " | 1 script on a page of 39 characters of text and 0 links",
        "only scripts | <div class=\"x\">Loading…</div>"
            + SCRIPT
            + SCRIPT
            + " | 2 scripts on a page of 10 characters of text and 0 links",
      })
  void findsAPageBuiltByScripts(String what, String body, String reason) {
    assertThat(need(body)).contains(reason);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "a static page | <h1>Title</h1><p>Text of its own.</p><a href=\"/a\">a</a><a href=\"/b\">b</a><a href=\"/c\">c</a>",
        "a filled app root | <div id=\"app\"><h1>Rendered on the server</h1><p>Its text is in the HTML already, a paragraph a reader sees"
            + " before any script runs, as a server renders it.</p><a href=\"/a\">a</a><a href=\"/b\">b</a>"
            + "<a href=\"/c\">c</a></div>"
            + SCRIPT,
        "a long page with an empty root | <div id=\"app\"></div>" + TEXT + SCRIPT,
        "a noscript that asks nothing | <noscript><img src=\"/pixel.gif\"></noscript><p>short</p>",
        "no scripts and no text | <div></div>",
        "a javadoc page of a few lines | <noscript><div>JavaScript is disabled on your"
            + " browser.</div></noscript><header><nav><a href=\"/index.html\">Overview</a>"
            + "<a href=\"/p/package-summary.html\">Package</a><a href=\"/p/C.html\">Class</a>"
            + "</nav></header><main><h1>Uses of Class p.C</h1><p>No usage of p.C</p></main>"
            + SCRIPT,
      })
  void leavesAPageThatReadsWellWithoutItsScripts(String what, String body) {
    assertThat(need(body)).isEmpty();
  }

  private static java.util.Optional<String> need(String body) {
    ParseResult result =
        PageParser.withDefaults()
            .parse(
                new Page(
                    "http://a.example/",
                    Map.of(),
                    ("<html><head><title>T</title></head><body>"
                            + body.replace(
                                TEXT,
                                "<p>"
                                    + "A page that reads well without its scripts. ".repeat(30)
                                    + "</p>")
                            + "</body></html>")
                        .getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    java.util.Optional.of("text/html"),
                    java.util.Optional.empty()),
                ParseOptions.of(Map.of("render", "auto")));
    return result instanceof ParseResult.NeedsRendering needs
        ? java.util.Optional.of(needs.reason())
        : java.util.Optional.empty();
  }
}
