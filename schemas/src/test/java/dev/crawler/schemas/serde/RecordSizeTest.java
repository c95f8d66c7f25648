package dev.crawler.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.crawler.events.DiscoveredUrl;
import dev.crawler.events.DocumentPage;
import dev.crawler.events.DocumentPages;
import dev.crawler.events.ParsedDocument;
import dev.crawler.events.UrlKind;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** A value the topics would refuse is refused where it is serialized. */
class RecordSizeTest {

  private static final String HUGE = "x".repeat(RecordSize.MAX_VALUE_BYTES + 1);

  @Test
  void anEventLargerThanARecordMayBeIsRefusedWhenItIsSerialized() {
    AvroSerde<DiscoveredUrl> serde =
        AvroSerde.forValues(new InMemorySchemaRegistryClient(), DiscoveredUrl.class);
    DiscoveredUrl link =
        DiscoveredUrl.newBuilder()
            .setUrl("http://a.example/" + HUGE)
            .setDepth(1)
            .setKind(UrlKind.LINK)
            .setDiscoveredAt(Instant.EPOCH)
            .build();

    assertThatThrownBy(() -> serde.serialize("crawl.discovered", link))
        .isInstanceOf(SerializationException.class)
        .hasCauseInstanceOf(RecordTooLargeException.class)
        .hasMessageContaining("DiscoveredUrl for crawl.discovered is too large");
  }

  @Test
  void aStateRecordLargerThanARecordMayBeIsRefusedToo() {
    StateSerde<DocumentPages> serde = StateSerde.of(DocumentPages.class);
    DocumentPages pages =
        new DocumentPages(
            ParsedDocument.newBuilder().setUrl("http://a.example/").build(),
            List.of(DocumentPage.newBuilder().setUrl("http://a.example/").setText(HUGE).build()),
            Instant.EPOCH);

    assertThatThrownBy(() -> serde.serialize("committer-pages-changelog", pages))
        .isInstanceOf(SerializationException.class)
        .hasCauseInstanceOf(RecordTooLargeException.class);
  }

  @Test
  void aRecordWithinTheBoundIsWritten() {
    AvroSerde<DiscoveredUrl> serde =
        AvroSerde.forValues(new InMemorySchemaRegistryClient(), DiscoveredUrl.class);
    DiscoveredUrl link =
        DiscoveredUrl.newBuilder()
            .setUrl("http://a.example/" + "x".repeat(1_000_000))
            .setDepth(1)
            .setKind(UrlKind.LINK)
            .setDiscoveredAt(Instant.EPOCH)
            .build();

    assertThat(serde.serialize("crawl.discovered", link)).hasSizeGreaterThan(1_000_000);
  }
}
