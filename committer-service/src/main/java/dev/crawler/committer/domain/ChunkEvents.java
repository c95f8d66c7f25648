package dev.crawler.committer.domain;

import dev.crawler.events.ChunkEvent;
import dev.crawler.events.ChunkEventType;
import dev.crawler.events.Document;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What {@code crawl.chunks} learns when a document changes, so that its live chunks are always the
 * document's current ones: a new version publishes each of its chunks and deletes (an event, then a
 * tombstone) those of the last version it no longer has; a document deleted deletes all of its
 * chunks. Chunks are made of the document's markdown, or its text when it has none. Pure.
 */
public final class ChunkEvents {

  /**
   * A record for {@code crawl.chunks}, keyed by chunk id; a null value is a tombstone.
   *
   * @param id the chunk's id, the key
   * @param event the event, or null for a tombstone
   */
  public record Out(String id, @Nullable ChunkEvent event) {}

  /**
   * What the chunk topic learns, and the ids to keep for the document.
   *
   * @param out the records, in order: upserts, then each delete and its tombstone
   * @param ids the chunk ids of the document from now on
   * @param truncated whether the document had more markdown than its chunk bound holds
   */
  public record Result(List<Out> out, List<String> ids, boolean truncated) {}

  private ChunkEvents() {}

  /**
   * The chunk records of a document upserted as {@code document}, chunked at {@code maxChars} (0:
   * no chunks, the previous ones deleted).
   *
   * @param previous the ids published for its last version
   */
  public static Result upserted(
      String url, Document document, List<String> previous, int maxChars, Instant now) {
    if (maxChars <= 0) {
      return deleted(url, previous, now);
    }
    Chunker chunker =
        new Chunker(Math.max(Chunker.MIN_MAX_CHARS, maxChars), 0, Chunker.DEFAULT_MAX_CHUNKS);
    String markdown = document.getMarkdown() != null ? document.getMarkdown() : document.getText();
    Chunks chunks = chunker.split(url, markdown);
    List<Out> out = new ArrayList<>(chunks.chunks().size());
    Set<String> ids = new LinkedHashSet<>();
    for (Chunk chunk : chunks.chunks()) {
      ids.add(chunk.id());
      out.add(
          new Out(
              chunk.id(),
              ChunkEvent.newBuilder()
                  .setType(ChunkEventType.UPSERT)
                  .setId(chunk.id())
                  .setUrl(url)
                  .setDocumentVersion(document.getVersion())
                  .setPosition(chunk.position())
                  .setOf(chunks.chunks().size())
                  .setHeadingPath(chunk.headingPath())
                  .setText(chunk.text())
                  .setMarkdown(chunk.markdown())
                  .setTitle(document.getTitle())
                  .setLanguage(document.getLanguage())
                  .setTime(now)
                  .build()));
    }
    Set<String> gone = new HashSet<>(previous);
    gone.removeAll(ids);
    for (String id : previous) {
      if (gone.contains(id)) {
        out.addAll(delete(url, id, document.getVersion(), now));
      }
    }
    return new Result(out, List.copyOf(ids), chunks.truncated());
  }

  /** The chunk records of a document deleted: each of its chunks deleted. */
  public static Result deleted(String url, List<String> previous, Instant now) {
    List<Out> out = new ArrayList<>(2 * previous.size());
    for (String id : previous) {
      out.addAll(delete(url, id, 0, now));
    }
    return new Result(out, List.of(), false);
  }

  private static List<Out> delete(String url, String id, long version, Instant now) {
    ChunkEvent delete =
        ChunkEvent.newBuilder()
            .setType(ChunkEventType.DELETE)
            .setId(id)
            .setUrl(url)
            .setDocumentVersion(version)
            .setTime(now)
            .build();
    return List.of(new Out(id, delete), new Out(id, null));
  }
}
