package dev.crawler.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DiscoveredUrl;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegisteredSchemasTest {

  @TempDir Path dir;

  private static final Schema PAGE_V1 =
      SchemaBuilder.record("Page").namespace("t").fields().requiredString("url").endRecord();
  private static final Schema PAGE_V2_WITH_DEFAULT =
      SchemaBuilder.record("Page")
          .namespace("t")
          .fields()
          .requiredString("url")
          .name("depth")
          .type()
          .intType()
          .intDefault(0)
          .endRecord();
  private static final Schema PAGE_V2_WITHOUT_DEFAULT =
      SchemaBuilder.record("Page")
          .namespace("t")
          .fields()
          .requiredString("url")
          .requiredInt("depth")
          .endRecord();

  private Path file() {
    return dir.resolve("schemas.jsonl");
  }

  @Test
  void numbersSchemasOnceAcrossSubjectsAndVersionsPerSubject() {
    try (RegisteredSchemas schemas = RegisteredSchemas.open(file())) {
      var discovered = schemas.register("a-value", DiscoveredUrl.getClassSchema().toString());
      var outcome = schemas.register("b-value", CrawlOutcome.getClassSchema().toString());
      var sameElsewhere = schemas.register("c-value", DiscoveredUrl.getClassSchema().toString());
      var again = schemas.register("a-value", DiscoveredUrl.getClassSchema().toString());

      assertThat(List.of(discovered.id(), outcome.id(), sameElsewhere.id()))
          .containsExactly(1, 2, 1);
      assertThat(sameElsewhere.version()).isEqualTo(1);
      assertThat(again).isEqualTo(discovered);
      assertThat(schemas.subjects()).containsExactly("a-value", "b-value", "c-value");
      assertThat(schemas.schemaById(2)).contains(CrawlOutcome.getClassSchema());
      assertThat(schemas.schemaById(3)).isEmpty();
      assertThat(schemas.schemaById(0)).isEmpty();
    }
  }

  @Test
  void takesANewVersionThatReadsTheLatestAndRefusesOneThatCannot() {
    try (RegisteredSchemas schemas = RegisteredSchemas.open(file())) {
      schemas.register("p-value", PAGE_V1.toString());

      assertThatThrownBy(() -> schemas.register("p-value", PAGE_V2_WITHOUT_DEFAULT.toString()))
          .isInstanceOf(RegisteredSchemas.IncompatibleSchemaException.class)
          .hasMessageContaining("p-value version 1");
      var second = schemas.register("p-value", PAGE_V2_WITH_DEFAULT.toString());

      assertThat(second.version()).isEqualTo(2);
      assertThat(second.id()).isEqualTo(2);
      assertThat(schemas.versions("p-value"))
          .extracting(r -> r.schema())
          .containsExactly(PAGE_V1, PAGE_V2_WITH_DEFAULT);
      // another subject has no history to be compatible with
      assertThat(schemas.register("q-value", PAGE_V2_WITHOUT_DEFAULT.toString()).id()).isEqualTo(3);
    }
  }

  @Test
  void refusesTextThatIsNotAnAvroSchema() {
    try (RegisteredSchemas schemas = RegisteredSchemas.open(file())) {
      assertThatThrownBy(() -> schemas.register("x-value", "{\"type\": \"record\"}"))
          .isInstanceOf(RegisteredSchemas.InvalidSchemaException.class);
      assertThat(schemas.subjects()).isEmpty();
    }
  }

  @Test
  void keepsEveryRegistrationAcrossARestart() {
    try (RegisteredSchemas schemas = RegisteredSchemas.open(file())) {
      schemas.register("p-value", PAGE_V1.toString());
      schemas.register("o-value", CrawlOutcome.getClassSchema().toString());
      schemas.register("p-value", PAGE_V2_WITH_DEFAULT.toString());
    }
    try (RegisteredSchemas schemas = RegisteredSchemas.open(file())) {
      assertThat(schemas.schemaById(2)).contains(CrawlOutcome.getClassSchema());
      assertThat(schemas.find("p-value", PAGE_V2_WITH_DEFAULT.toString()))
          .map(RegisteredSchemas.Registration::version)
          .contains(2);
      assertThat(schemas.register("n-value", DiscoveredUrl.getClassSchema().toString()).id())
          .isEqualTo(4);
    }
  }

  @Test
  void dropsALastLineCutShortByACrash() throws IOException {
    try (RegisteredSchemas schemas = RegisteredSchemas.open(file())) {
      schemas.register("p-value", PAGE_V1.toString());
    }
    Files.writeString(
        file(), "{\"id\":2,\"subject\":\"o-va", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

    try (RegisteredSchemas schemas = RegisteredSchemas.open(file())) {
      assertThat(schemas.subjects()).containsExactly("p-value");
      assertThat(schemas.register("o-value", CrawlOutcome.getClassSchema().toString()).id())
          .isEqualTo(2);
    }
    try (RegisteredSchemas schemas = RegisteredSchemas.open(file())) {
      assertThat(schemas.schemaById(2)).contains(CrawlOutcome.getClassSchema());
    }
  }

  @Test
  void isOneRegistryPerFile() {
    try (RegisteredSchemas first = RegisteredSchemas.open(file())) {
      assertThatThrownBy(() -> RegisteredSchemas.open(file()))
          .isInstanceOf(RuntimeException.class)
          .hasMessageContaining(file().toString());
    }
    try (RegisteredSchemas again = RegisteredSchemas.open(file())) {
      assertThat(again.subjects()).isEmpty();
    }
  }

  @Test
  void refusesToStartOnALineItCannotRead() throws IOException {
    Files.writeString(file(), "not json\n{}\n", StandardCharsets.UTF_8);

    assertThatThrownBy(() -> RegisteredSchemas.open(file()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(file().toString())
        .hasMessageContaining("line 1");
  }
}
