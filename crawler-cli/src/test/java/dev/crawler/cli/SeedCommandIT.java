package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.embedded.EmbeddedCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A seed Kafka did not take is said, and the command fails. */
class SeedCommandIT {

  @TempDir Path dataDir;

  @Test
  void aSeedThatCouldNotBeWrittenMakesTheCommandFailNamingIt() {
    try (EmbeddedCluster cluster = EmbeddedCluster.start(dataDir, 1)) {
      // no topics: crawl.discovered is not there, and the broker creates none by itself
      PrintStream err = System.err;
      ByteArrayOutputStream captured = new ByteArrayOutputStream();
      int exit;
      try {
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        exit =
            CrawlerCli.run(
                "seed",
                "http://a.example/",
                "--bootstrap-servers",
                cluster.bootstrapServers(),
                "--schema-registry",
                cluster.schemaRegistryUrl());
      } finally {
        System.setErr(err);
      }

      assertThat(exit).isNotZero();
      assertThat(captured.toString(StandardCharsets.UTF_8))
          .contains("1 seed(s) not sent: http://a.example/");
    }
  }
}
