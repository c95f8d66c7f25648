package dev.crawler.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.common.kafka.TopicReader;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.DocumentEventType;
import dev.crawler.schemas.Topics;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code crawler documents}: what a downstream consumer of {@code crawl.documents} sees, as JSON
 * lines. By default it reads the compacted topic from the start and prints the live set — one line
 * per document whose last event is an upsert — the way a search index rebuilds itself; with {@code
 * --follow} it prints every event (upsert, delete, tombstone) as it comes. It reads with a plain
 * Kafka consumer and the Confluent wire format, like any downstream consumer, and commits nothing.
 */
@Command(
    name = "documents",
    mixinStandardHelpOptions = true,
    description =
        "Print the live documents of crawl.documents, or follow its events, as JSON lines.")
public final class DocumentsCommand implements Callable<Integer> {

  private static final ObjectMapper JSON =
      new ObjectMapper().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Option(
      names = "--follow",
      description =
          "Print every event from the start of the topic and keep following it, instead of the live set.")
  boolean follow;

  @Option(
      names = "--text",
      description = "Include each document's text (left out by default: it is long).")
  boolean withText;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "0",
      description = "With --follow: stop after N events (default: never).")
  long limit;

  @Override
  public Integer call() throws Exception {
    Topics topics = cluster.topics();
    PrintWriter out = spec.commandLine().getOut();
    Map<String, DocumentEvent> live = new LinkedHashMap<>();
    long[] printed = {0};
    if (follow) {
      TopicReader.follow(
          cluster.readerProperties(),
          topics.documents(),
          record -> {
            out.println(JSON.writeValueAsString(eventLine(record)));
            out.flush();
            return limit <= 0 || ++printed[0] < limit;
          },
          problem -> spec.commandLine().getErr().println("crawler: skipping a record: " + problem));
      return 0;
    }
    TopicReader.Result read =
        TopicReader.read(
            cluster.readerProperties(),
            topics.documents(),
            ClusterOptions.READ_BOUND,
            record -> {
              if (record.value() == null || record.value().getType() == DocumentEventType.DELETE) {
                live.remove(record.key());
              } else {
                live.put(record.key(), record.value());
              }
              return true;
            },
            problem ->
                spec.commandLine().getErr().println("crawler: skipping a record: " + problem));
    if (!read.isComplete()) {
      spec.commandLine()
          .getErr()
          .println(
              "crawler: gave up reading "
                  + topics.documents().name()
                  + " after "
                  + ClusterOptions.READ_BOUND
                  + " with "
                  + read.recordsLeft()
                  + " events unread: the documents below are incomplete");
    }
    for (DocumentEvent event : live.values()) {
      out.println(JSON.writeValueAsString(toJson(event.getDocument())));
    }
    out.flush();
    return 0;
  }

  private Map<String, Object> eventLine(ConsumerRecord<String, DocumentEvent> record) {
    Map<String, Object> line = new LinkedHashMap<>();
    DocumentEvent event = record.value();
    line.put("event", event == null ? "TOMBSTONE" : event.getType().name());
    line.put("url", record.key());
    if (event != null) {
      line.put("time", event.getTime().toString());
      if (event.getType() == DocumentEventType.DELETE) {
        line.put(
            "deleteReason",
            event.getDeleteReason() == null ? null : event.getDeleteReason().name());
        line.put("deleteDetail", event.getDeleteDetail());
      } else {
        line.put("document", toJson(event.getDocument()));
      }
    }
    return line;
  }

  /**
   * A record's fields as JSON values: timestamps as ISO-8601 text, enums by name; the text only
   * with --text.
   */
  private Object toJson(Object value) {
    if (value instanceof SpecificRecord record) {
      Map<String, Object> fields = new LinkedHashMap<>();
      for (Schema.Field field : record.getSchema().getFields()) {
        if (field.name().equals("text") && !withText) {
          continue;
        }
        fields.put(field.name(), toJson(record.get(field.pos())));
      }
      return fields;
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> copy = new LinkedHashMap<>();
      map.forEach((k, v) -> copy.put(String.valueOf(k), toJson(v)));
      return copy;
    }
    if (value instanceof List<?> list) {
      return list.stream().map(this::toJson).toList();
    }
    if (value instanceof CharSequence || value instanceof Instant || value instanceof Enum<?>) {
      return value.toString();
    }
    if (value instanceof ByteBuffer) {
      return null;
    }
    return value;
  }
}
