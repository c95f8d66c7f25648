package dev.crawler.committer.domain;

import java.util.List;

/**
 * A piece of a document's markdown sized for retrieval, as {@link Chunker} cuts it.
 *
 * @param position the chunk's place in its document, 0 first
 * @param start the offset of its first character in the document's markdown (UTF-16 units)
 * @param end the offset after its last character: {@code markdown} is the markdown's {@code [start,
 *     end)}
 * @param headingPath the text of the headings it falls under, outermost first, without their {@code
 *     #} marks; empty before the first heading
 * @param markdown its markdown, at most {@link Chunker#maxChars()} characters; never starting with
 *     a blank line nor ending with whitespace
 * @param text its markdown as plain text (never longer than it; never blank)
 * @param id 32 hex digits, stable while the document's URL, the heading path and the chunk's
 *     markdown are (see {@link Chunker})
 */
public record Chunk(
    int position,
    int start,
    int end,
    List<String> headingPath,
    String markdown,
    String text,
    String id) {

  public Chunk {
    headingPath = List.copyOf(headingPath);
  }
}
