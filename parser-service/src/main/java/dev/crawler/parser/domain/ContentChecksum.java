package dev.crawler.parser.domain;

import dev.crawler.common.hash.Sha256;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The content checksum of a page: lower-case hex SHA-256 of the UTF-8 bytes of {@code title + "\n"
 * + text}, exactly as {@link String#getBytes(java.nio.charset.Charset) getBytes(UTF_8)} encodes
 * them (an unpaired surrogate as {@code ?}). Text is encoded into buffers of the thread's and fed
 * to the digest from there: a string chunk by chunk, a page's text ({@link #ofUtf8}) whole, then
 * copied out once at its exact length (encoding through {@code getBytes} cost up to three times the
 * text's length in garbage per page).
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

  /** A whole page's text in UTF-8 ({@link #ofUtf8}); let go when a huge page grew it past this. */
  private byte[] text = new byte[BUFFER_BYTES];

  private static final int MAX_KEPT_TEXT_BYTES = 3 << 20;

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
   * The text given as the first {@code length} characters of {@code text} ({@link PageText}'s
   * buffer) in UTF-8, and {@link #of(String, String)} of the title and that text: the text is
   * encoded once, into a buffer of the thread's, hashed from there and copied out.
   */
  static PageText.WithChecksum ofUtf8(String title, char[] text, int length) {
    ContentChecksum checksum = OF_THREAD.get();
    checksum.digest.reset();
    checksum.update(title);
    checksum.digest.update((byte) '\n');
    if (checksum.text.length < 3 * length) {
      checksum.text = new byte[Math.max(3 * length, 2 * checksum.text.length)];
    }
    int bytes = encode(text, length, checksum.text);
    checksum.digest.update(checksum.text, 0, bytes);
    byte[] utf8 = Arrays.copyOf(checksum.text, bytes);
    if (checksum.text.length > MAX_KEPT_TEXT_BYTES) {
      checksum.text = new byte[BUFFER_BYTES];
    }
    return new PageText.WithChecksum(utf8, HexFormat.of().formatHex(checksum.digest.digest()));
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
      digest.update(bytes, 0, encode(chars, end - start, bytes));
      start = end;
    }
  }

  /**
   * Encodes the first {@code to} characters of {@code chars} into {@code bytes} (room for 3 bytes a
   * character), returning the byte count. A chunk ends before a high surrogate unless the text
   * does, so a pair is never split.
   */
  private static int encode(char[] chars, int to, byte[] bytes) {
    int n = 0;
    for (int i = 0; i < to; i++) {
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
