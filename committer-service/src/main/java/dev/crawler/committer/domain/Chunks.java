package dev.crawler.committer.domain;

import java.util.List;

/**
 * A document's chunks, in the order of its markdown.
 *
 * @param chunks at most {@link Chunker#maxChunks()}
 * @param truncated whether markdown past the last chunk was left out to keep within {@link
 *     Chunker#maxChunks()}
 */
public record Chunks(List<Chunk> chunks, boolean truncated) {

  /** No chunks: an empty document. */
  public static final Chunks NONE = new Chunks(List.of(), false);

  public Chunks {
    chunks = List.copyOf(chunks);
  }
}
