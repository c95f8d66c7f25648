package dev.crawler.cli.crawl;

import dev.crawler.cli.CrawlerCli;
import dev.crawler.embedded.EmbeddedCluster;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/** The {@code crawler} command line against one cluster: its connection after every command. */
record CrawlerAt(String bootstrapServers, String schemaRegistry) {

  static CrawlerAt of(EmbeddedCluster cluster) {
    return new CrawlerAt(cluster.bootstrapServers(), cluster.schemaRegistryUrl());
  }

  /** Runs a command to its end; returns its exit code. */
  int run(String... command) {
    String[] arguments = Arrays.copyOf(command, command.length + 4);
    arguments[command.length] = "--bootstrap-servers";
    arguments[command.length + 1] = bootstrapServers;
    arguments[command.length + 2] = "--schema-registry";
    arguments[command.length + 3] = schemaRegistry;
    return CrawlerCli.run(arguments);
  }

  /** Runs a command on a thread of its own (a crawl that goes on while the test acts on it). */
  CompletableFuture<Integer> runInBackground(String... command) {
    return CompletableFuture.supplyAsync(() -> run(command));
  }
}
