package dev.crawler.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.ParsedDocument;
import dev.crawler.schemas.SampleEvents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.junit.jupiter.api.Test;

/**
 * The fields documents gained for imported files and languages keep the contract both ways: a
 * reader of the schema before them reads what is written now, and today's reader reads what was
 * written before (the defaults fill the new fields), as a registry checking FULL compatibility
 * would require.
 */
class SchemaEvolutionTest {

  private static final List<String> ADDED =
      List.of("declaredLanguage", "author", "createdAt", "modifiedAt", "filePageCount");

  @Test
  void aParsedDocumentWithoutTheNewFieldsIsCompatibleBothWays() {
    Schema now = ParsedDocument.getClassSchema();
    Schema before = without(now, ADDED);

    assertCompatibleBothWays(now, before);
  }

  @Test
  void aDocumentEventWithoutTheNewFieldsIsCompatibleBothWays() {
    Schema now = DocumentEvent.getClassSchema();
    Schema before = without(now, ADDED);

    assertCompatibleBothWays(now, before);
  }

  @Test
  void aReaderOfTheSchemaBeforeReadsADocumentWrittenNow() throws IOException {
    InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
    DocumentEvent event = SampleEvents.upsert();
    event.getDocument().setAuthor("Ada Fenwick");
    event.getDocument().setFilePageCount(12);
    byte[] bytes =
        AvroSerde.forValues(registry, DocumentEvent.class).serialize("crawl.documents", event);
    Schema before = without(DocumentEvent.getClassSchema(), ADDED);

    GenericRecord read =
        new GenericDatumReader<GenericRecord>(DocumentEvent.getClassSchema(), before)
            .read(null, DecoderFactory.get().binaryDecoder(bytes, 5, bytes.length - 5, null));

    GenericRecord document = (GenericRecord) read.get("document");
    assertThat(document.get("url").toString()).isEqualTo(event.getDocument().getUrl());
    assertThat(document.getSchema().getField("author")).isNull();
  }

  private static void assertCompatibleBothWays(Schema now, Schema before) {
    assertThat(SchemaCompatibility.checkReaderWriterCompatibility(now, before).getType())
        .as("today's reader, the older writer")
        .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
    assertThat(SchemaCompatibility.checkReaderWriterCompatibility(before, now).getType())
        .as("the older reader, today's writer")
        .isEqualTo(SchemaCompatibilityType.COMPATIBLE);
  }

  /** The schema with these fields removed wherever they are (records nested in it included). */
  private static Schema without(Schema schema, List<String> fields) {
    String json = schema.toString();
    Schema.Parser parser = new Schema.Parser();
    ObjectMapper mapper = new ObjectMapper();
    try {
      JsonNode tree = mapper.readTree(json);
      strip(tree, fields);
      return parser.parse(mapper.writeValueAsString(tree));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void strip(JsonNode node, List<String> fields) {
    if (node.isObject()) {
      JsonNode list = node.get("fields");
      if (list != null && list.isArray()) {
        ArrayNode array = (ArrayNode) list;
        for (int i = array.size() - 1; i >= 0; i--) {
          if (fields.contains(array.get(i).path("name").asText())) {
            array.remove(i);
          }
        }
      }
      node.forEach(child -> strip(child, fields));
    } else if (node.isArray()) {
      node.forEach(child -> strip(child, fields));
    }
  }
}
