package dev.crawler.cli.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cli.CrawlerCli;
import dev.crawler.frontier.rules.CrawlOption;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad arguments and settings: a one-line error naming what is wrong, exit code 2, nothing started.
 */
class CrawlCommandTest {

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "crawl                                                  | SEED_URL",
        "crawl not-a-url                                        | not-a-url",
        "crawl ftp://example.org/                               | ftp://example.org/",
        "crawl http://127.0.0.1:1/ --max-pages 0                | --max-pages must be at least 1",
        "crawl http://127.0.0.1:1/ --max-pages many             | --max-pages",
        "crawl http://127.0.0.1:1/ --max-depth -2               | --max-depth must be -1 or more",
        "crawl http://127.0.0.1:1/ --delay-ms -5                | --delay-ms must be 0 to 3600000",
        "crawl http://127.0.0.1:1/ --delay-ms 7200000           | --delay-ms must be 0 to 3600000",
        "crawl http://127.0.0.1:1/ --bootstrap-servers x:9092   | --schema-registry",
        "crawl http://127.0.0.1:1/ --config /no/such/file       | /no/such/file",
        "crawl http://127.0.0.1:1/ --user-agent ' '             | --user-agent",
        "crawl http://127.0.0.1:1/ --unknown                    | --unknown",
      })
  void rejectsBadArgumentsWithOneLineAndExitCode2(String arguments, String named) {
    Result result = run(arguments.trim().split("\\s+(?=(?:[^']*'[^']*')*[^']*$)"));

    assertThat(result.exit()).isEqualTo(CrawlerCli.USAGE_ERROR);
    assertThat(result.err()).contains(named);
    assertThat(result.out()).doesNotContain("Starting the embedded");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "frontier.max.depth=deep         | frontier.max.depth",
        "frontier.delay.ms=-1            | frontier.delay.ms",
        "fetcher.delay.ms=100            | fetcher.delay.ms",
        "fetcher.delay.msec=100          | fetcher.delay.msec",
        "schema.registry.url=ftp://x     | schema.registry.url",
      })
  void rejectsABadSettingInTheConfigFileNamingIt(String setting, String named) throws IOException {
    Path config = Files.writeString(dir.resolve("crawl.properties"), setting + "\n");

    Result result =
        run(
            "crawl",
            "http://127.0.0.1:1/",
            "--settings",
            config.toString(),
            "--data-dir",
            dir.resolve("data").toString());

    assertThat(result.exit()).isEqualTo(CrawlerCli.USAGE_ERROR);
    assertThat(result.err()).contains(named).doesNotContain("\tat ");
    assertThat(dir.resolve("data")).doesNotExist();
  }

  @Test
  void askedToRenderWithoutABrowserItSaysWhatToInstallAndStartsNothing() throws IOException {
    Path settings =
        Files.writeString(
            dir.resolve("crawl.properties"), "render.browser.path=/nonexistent/chromium\n");

    Result result =
        run(
            "crawl",
            "http://127.0.0.1:1/",
            "--render",
            "auto",
            "--settings",
            settings.toString(),
            "--data-dir",
            dir.resolve("data").toString());

    assertThat(result.exit()).isEqualTo(CrawlerCli.USAGE_ERROR);
    assertThat(result.err().lines())
        .singleElement()
        .satisfies(
            line ->
                assertThat(line)
                    .contains("render.browser.path")
                    .contains("apt-get install chromium-headless-shell"));
    assertThat(dir.resolve("data")).doesNotExist();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "rules: [{may-not-have: {url-regex: '(x'}}]   | crawl.yaml:1: rules[0].may-not-have.url-regex: bad regular expression",
        "global: {scope: planet}                       | crawl.yaml:1: global.scope: 'planet' is not one of",
      })
  void rejectsABadCrawlConfigurationNamingFileLineAndKey(String yaml, String message)
      throws IOException {
    Path config = Files.writeString(dir.resolve("crawl.yaml"), yaml + "\n");

    Result result =
        run(
            "crawl",
            "http://127.0.0.1:1/",
            "--config",
            config.toString(),
            "--data-dir",
            dir.resolve("data").toString());

    assertThat(result.exit()).isEqualTo(CrawlerCli.USAGE_ERROR);
    assertThat(result.err()).contains(message);
    assertThat(dir.resolve("data")).doesNotExist();
  }

  @Test
  void acceptsGoodSettings() throws IOException {
    Path config =
        Files.writeString(
            dir.resolve("crawl.properties"),
            "frontier.max.depth=3\nfetcher.user.agent=test-bot/1.0\nkafka.linger.ms=10\n");
    CrawlCommand command = new CrawlCommand();
    command.seeds = List.of("HTTP://Example.org:80/a/../b#x");
    command.settingsFile = config;
    command.dataDir = dir.resolve("data");
    command.partitions = 2;

    Crawl.Plan plan = command.plan();

    assertThat(plan.seeds()).containsExactly("http://example.org/b");
    assertThat(
            plan.settings()
                .frontier("127.0.0.1:9092", "http://127.0.0.1:8081")
                .settings()
                .crawl()
                .global())
        .containsEntry(CrawlOption.MAX_DEPTH, 3);
  }

  private record Result(int exit, String out, String err) {}

  private static Result run(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      int exit =
          CrawlerCli.run(
              Arrays.stream(args).map(arg -> arg.replace("'", "")).toArray(String[]::new));
      return new Result(
          exit,
          outBytes.toString(StandardCharsets.UTF_8),
          errBytes.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
  }
}
