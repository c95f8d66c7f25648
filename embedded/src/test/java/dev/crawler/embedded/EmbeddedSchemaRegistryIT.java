package dev.crawler.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DiscoveredUrl;
import dev.crawler.schemas.serde.HttpSchemaRegistryClient;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A registry of its own, to watch its process come and go. */
class EmbeddedSchemaRegistryIT {

  @TempDir Path workDir;

  @Test
  void servesTheConfluentApiAndLeavesNoProcessBehind() {
    long pid;
    try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(workDir)) {
      pid = registry.pid();
      assertThat(registry.url()).startsWith("http://127.0.0.1:").endsWith("/apis/ccompat/v7");
      HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(registry.url());

      int id = client.register("some-topic-value", DiscoveredUrl.getClassSchema());

      assertThat(client.register("some-topic-value", DiscoveredUrl.getClassSchema())).isEqualTo(id);
      assertThat(new HttpSchemaRegistryClient(registry.url()).schemaById(id))
          .isEqualTo(DiscoveredUrl.getClassSchema());
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);
    }
    Optional<ProcessHandle> after = ProcessHandle.of(pid);
    assertThat(after.map(ProcessHandle::isAlive).orElse(false)).isFalse();
    assertThat(
            ProcessHandle.current()
                .children()
                .filter(ProcessHandle::isAlive)
                .filter(p -> p.pid() == pid))
        .isEmpty();
  }

  @Test
  void keepsItsSchemasAcrossRestartsSoRecordsWrittenBeforeStillDecode() {
    int first;
    int second;
    try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(workDir)) {
      HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(registry.url());
      first = client.register("a-value", DiscoveredUrl.getClassSchema());
      second = client.register("b-value", CrawlOutcome.getClassSchema());
    }
    try (EmbeddedSchemaRegistry registry = EmbeddedSchemaRegistry.start(workDir)) {
      HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(registry.url());
      // registered in the other order: a registry that
      // forgot would hand out the ids the other way round
      assertThat(client.register("b-value", CrawlOutcome.getClassSchema())).isEqualTo(second);
      assertThat(client.schemaById(first)).isEqualTo(DiscoveredUrl.getClassSchema());
    }
  }
}
