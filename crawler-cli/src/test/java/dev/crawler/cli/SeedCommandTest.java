package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class SeedCommandTest {

  @Test
  void refusesAUrlThatIsNotHttpAndSendsNothing() {
    StringWriter err = new StringWriter();
    var commandLine = CrawlerCli.commandLine();
    commandLine.setErr(new PrintWriter(err, true));

    // the cluster address is never used: the bad seed stops the command first
    int exit =
        commandLine.execute(
            "seed",
            "https://ok.example/",
            "ftp://files.example/",
            "--bootstrap-servers",
            "127.0.0.1:1");

    assertThat(exit).isEqualTo(CrawlerCli.USAGE_ERROR);
    assertThat(err.toString()).contains("not a seed URL: ftp://files.example/");
  }

  @Test
  void needsAtLeastOneUrl() {
    var commandLine = CrawlerCli.commandLine();
    commandLine.setErr(new PrintWriter(new StringWriter(), true));

    assertThat(commandLine.execute("seed")).isEqualTo(CrawlerCli.USAGE_ERROR);
  }
}
