package dev.crawler.parser.domain;

import dev.crawler.common.hash.Sha256;
import java.security.MessageDigest;
import java.util.HexFormat;

/**
 * The content checksum of a page: lower-case hex SHA-256 of the UTF-8 bytes of {@code title + "\n"
 * + text}, exactly as {@link String#getBytes(java.nio.charset.Charset) getBytes(UTF_8)} encodes
 * them (an unpaired surrogate as {@code ?}). The text is encoded chunk by chunk into a buffer of
 * the thread's and fed to the digest from there: encoding a page's text as one byte array cost up
 * to three times its length in bytes per page, and a large share of the parser's garbage.
 *
 * <p>Thread-safe: each thread has its own digest and buffers.
 */
final class ContentChecksum {

  private static final int CHUNK_CHARS = 2_048;

  /** Room for a chunk's characters at 3 bytes each, or 4 for a pair of them. */
  private static final int BUFFER_BYTES = 3 * CHUNK_CHARS + 4;

  private static final ThreadLocal<ContentChecksum> OF_THREAD =
      ThreadLocal.withInitial(ContentChecksum::new);

  private final MessageDigest digest = Sha256.newDigest();
  private final char[] chars = new char[CHUNK_CHARS];
  private final byte[] bytes = new byte[BUFFER_BYTES];

  private ContentChecksum() {}

  /** The checksum of a title and a text, each already whitespace-collapsed. */
  static String of(String title, String text) {
    ContentChecksum checksum = OF_THREAD.get();
    checksum.digest.reset();
    checksum.update(title);
    checksum.digest.update((byte) '\n');
    checksum.update(text);
    return HexFormat.of().formatHex(checksum.digest.digest());
  }

  /**
   * {@link #of(String, String)} of a text given as the first {@code length} characters of {@code
   * text}: {@link PageText}'s buffer, read where it is rather than copied out of a string.
   */
  static String of(String title, char[] text, int length) {
    ContentChecksum checksum = OF_THREAD.get();
    checksum.digest.reset();
    checksum.update(title);
    checksum.digest.update((byte) '\n');
    int start = 0;
    while (start < length) {
      int end = chunkEnd(text, start, length);
      checksum.digest.update(checksum.bytes, 0, checksum.encode(text, start, end));
      start = end;
    }
    return HexFormat.of().formatHex(checksum.digest.digest());
  }

  private void update(String text) {
    int length = text.length();
    int start = 0;
    while (start < length) {
      int end = Math.min(length, start + CHUNK_CHARS);
      if (end < length && Character.isHighSurrogate(text.charAt(end - 1))) {
        end--; // a pair is encoded whole, in the next chunk
      }
      text.getChars(start, end, chars, 0);
      digest.update(bytes, 0, encode(chars, 0, end - start));
      start = end;
    }
  }

  /** Where a chunk from {@code start} ends: before a high surrogate, unless the text does. */
  private static int chunkEnd(char[] text, int start, int length) {
    int end = Math.min(length, start + CHUNK_CHARS);
    return end < length && Character.isHighSurrogate(text[end - 1]) ? end - 1 : end;
  }

  /**
   * Encodes {@code source[from..to)} into {@link #bytes}, returning the byte count. A chunk ends
   * before a high surrogate unless the text does, so a pair is never split.
   */
  private int encode(char[] chars, int from, int to) {
    byte[] bytes = this.bytes; // a local: the crawl's JIT (C1) reloads a field on every use
    int n = 0;
    for (int i = from; i < to; i++) {
      char c = chars[i];
      if (c < 0x80) {
        bytes[n++] = (byte) c;
      } else if (c < 0x800) {
        bytes[n++] = (byte) (0xC0 | c >> 6);
        bytes[n++] = (byte) (0x80 | c & 0x3F);
      } else if (Character.isHighSurrogate(c)
          && i + 1 < to
          && Character.isLowSurrogate(chars[i + 1])) {
        int codePoint = Character.toCodePoint(c, chars[++i]);
        bytes[n++] = (byte) (0xF0 | codePoint >> 18);
        bytes[n++] = (byte) (0x80 | codePoint >> 12 & 0x3F);
        bytes[n++] = (byte) (0x80 | codePoint >> 6 & 0x3F);
        bytes[n++] = (byte) (0x80 | codePoint & 0x3F);
      } else if (Character.isSurrogate(c)) {
        bytes[n++] = (byte) '?'; // unpaired, as String.getBytes replaces it
      } else {
        bytes[n++] = (byte) (0xE0 | c >> 12);
        bytes[n++] = (byte) (0x80 | c >> 6 & 0x3F);
        bytes[n++] = (byte) (0x80 | c & 0x3F);
      }
    }
    return n;
  }
}
