package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExplainCommandTest {

  @TempDir Path dir;

  @Test
  void explainsTheDispositionAndWhoSetEachOptionAsJson() throws Exception {
    Path config =
        Files.writeString(
            dir.resolve("crawl.yaml"),
            """
            global: {delay-ms: 2000}
            sites:
              - name: news
                seeds: [https://example.org/]
            rules:
              - apply-for: {path-prefix: /archive/}
                name: archive
                options: {delay-ms: 5000}
                rules:
                  - may-not-have: {extension: [pdf]}
                    log: true
              - apply-for: {host: other.example}
                options: {max-depth: 1}
            """);

    String printed =
        run(
            "explain",
            "https://example.org/archive/report.pdf",
            "--config",
            config.toString(),
            "--json");
    JsonNode json = new ObjectMapper().readTree(printed);

    assertThat(json.get("disposition").asText()).isEqualTo("filtered");
    assertThat(json.get("outcome").asText()).isEqualTo("FILTERED");
    assertThat(json.get("rule").asText()).isEqualTo("archive.rules[0]");
    assertThat(json.get("options").get("delay-ms").get("value").asText()).isEqualTo("5000");
    assertThat(json.get("options").get("delay-ms").get("setBy").asText()).isEqualTo("rule:archive");
    assertThat(json.get("options").get("scope").get("setBy").asText()).isEqualTo("default");
    assertThat(json.get("skipped").get(0).asText()).isEqualTo("rules[1]");
  }

  @Test
  void printsAReadableExplanation() {
    String printed = run("explain", "https://example.org/a", "--depth", "1");

    assertThat(printed)
        .contains("disposition: crawl")
        .contains("delay-ms")
        .contains("set by default");
  }

  @Test
  void namesTheTrapRuleThatCaughtAUrl() {
    assertThat(run("explain", "https://example.org/a/a/a/"))
        .contains(
            "disposition: filtered (FILTERED: TRAP_REPEATED_SEGMENT 'a' 3 times in a row > 2), decided by max-repeated-segments set by default");
    assertThat(run("explain", "https://example.org/cal/2026-11-23", "--calendar-hops", "6"))
        .contains(
            "TRAP_CALENDAR 6 links in a row within https://example.org/cal/#-#-# > 5), decided by max-calendar-hops set by default");
    assertThat(run("explain", "https://example.org/cal/2026-11-23", "--calendar-hops", "5"))
        .contains("disposition: crawl");
  }

  @Test
  void aBadConfigurationIsOneLineAndExitCode2() throws Exception {
    Path config = Files.writeString(dir.resolve("crawl.yaml"), "global: {delay-ms: soon}\n");
    PrintStream err = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      assertThat(CrawlerCli.run("explain", "https://example.org/", "--config", config.toString()))
          .isEqualTo(CrawlerCli.USAGE_ERROR);
    } finally {
      System.setErr(err);
    }
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains("crawl.yaml:1: global.delay-ms: 'soon' is not a whole number");
  }

  private static String run(String... args) {
    PrintStream out = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      assertThat(CrawlerCli.run(args)).isZero();
    } finally {
      System.setOut(out);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
