package dev.crawler.committer.domain;

import dev.crawler.common.hash.Sha256;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The ids of one document's chunks, in document order: the first 16 bytes, in hex, of SHA-256 over
 * the document's URL, the chunk's heading path and its markdown, each as length-prefixed UTF-8 (a
 * 4-byte big-endian length, then the bytes; the path as its element count, then each element). A
 * chunk whose path and markdown an earlier chunk of the document has gets its occurrence number (1
 * for the second) hashed in after them; the first keeps the plain id. Not thread-safe: one per
 * document.
 */
final class ChunkIds {

  private static final HexFormat HEX = HexFormat.of();

  /** The bytes of an id: 16 of the digest's 32. */
  private static final int ID_BYTES = 16;

  private final byte[] url;
  private final Map<String, Integer> occurrences = new HashMap<>();
  private final MessageDigest digest = Sha256.newDigest();

  ChunkIds(String url) {
    this.url = url.getBytes(StandardCharsets.UTF_8);
  }

  /** The id of the document's next chunk. */
  String next(List<String> path, String markdown) {
    String id = HEX.formatHex(hash(path, markdown, 0), 0, ID_BYTES);
    int occurrence = occurrences.merge(id, 1, Integer::sum) - 1;
    return occurrence == 0 ? id : HEX.formatHex(hash(path, markdown, occurrence), 0, ID_BYTES);
  }

  private byte[] hash(List<String> path, String markdown, int occurrence) {
    digest.reset();
    field(url);
    number(path.size());
    for (String heading : path) {
      field(heading.getBytes(StandardCharsets.UTF_8));
    }
    field(markdown.getBytes(StandardCharsets.UTF_8));
    if (occurrence > 0) {
      number(occurrence);
    }
    return digest.digest();
  }

  private void field(byte[] bytes) {
    number(bytes.length);
    digest.update(bytes);
  }

  private void number(int value) {
    digest.update((byte) (value >>> 24));
    digest.update((byte) (value >>> 16));
    digest.update((byte) (value >>> 8));
    digest.update((byte) value);
  }
}
