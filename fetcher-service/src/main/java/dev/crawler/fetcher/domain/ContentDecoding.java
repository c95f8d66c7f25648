package dev.crawler.fetcher.domain;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import org.brotli.dec.BrotliInputStream;
import org.jspecify.annotations.Nullable;

/**
 * Decodes a body's {@code Content-Encoding} (RFC 9110 section 8.4: gzip, deflate, br, or several in
 * order) with a cap on the decoded size, so a compression bomb ends as too large instead of filling
 * the memory: at most {@code maxBytes} + one buffer are ever held.
 */
public final class ContentDecoding {

  /** The codings this fetcher asks for in {@code Accept-Encoding}. */
  public static final String ACCEPTED = "gzip, deflate, br";

  /** How decoding went. */
  public sealed interface Decoded {}

  /** The decoded body. */
  public record Body(byte[] bytes) implements Decoded {}

  /** The decoded body is larger than the cap. */
  public record TooLarge(String detail) implements Decoded {}

  /** The body is not what its coding says (corrupt, truncated, unknown coding). */
  public record Broken(String detail) implements Decoded {}

  private ContentDecoding() {}

  /**
   * Decodes {@code body} as the {@code Content-Encoding} header says; a missing header or {@code
   * identity} leaves it as it is.
   */
  public static Decoded decode(@Nullable String contentEncoding, byte[] body, long maxBytes) {
    if (contentEncoding == null || contentEncoding.isBlank()) {
      return new Body(body);
    }
    String[] codings = contentEncoding.toLowerCase(Locale.ROOT).split(",");
    byte[] bytes = body;
    // codings are listed in the order they were applied: undo them from the last
    for (int i = codings.length - 1; i >= 0; i--) {
      String coding = codings[i].strip();
      if (coding.isEmpty() || coding.equals("identity")) {
        continue;
      }
      if (bytes.length == 0) {
        return new Body(bytes); // e.g. a HEAD or 304 answer that names a coding
      }
      Decoded decoded = decodeOne(coding, bytes, maxBytes);
      if (!(decoded instanceof Body next)) {
        return decoded;
      }
      bytes = next.bytes();
    }
    return new Body(bytes);
  }

  private static Decoded decodeOne(String coding, byte[] body, long maxBytes) {
    try (InputStream in = stream(coding, body)) {
      if (in == null) {
        return new Broken("unknown Content-Encoding " + coding);
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(body.length * 4, 1 << 20));
      byte[] buffer = new byte[16 * 1024];
      int read;
      while ((read = in.read(buffer)) != -1) {
        if (out.size() + (long) read > maxBytes) {
          return new TooLarge(coding + " body decodes to more than " + maxBytes + " bytes");
        }
        out.write(buffer, 0, read);
      }
      return new Body(out.toByteArray());
    } catch (IOException | RuntimeException e) {
      return new Broken("cannot decode the " + coding + " body: " + e.getMessage());
    }
  }

  private static @Nullable InputStream stream(String coding, byte[] body) throws IOException {
    ByteArrayInputStream raw = new ByteArrayInputStream(body);
    return switch (coding) {
      case "gzip", "x-gzip" -> new GZIPInputStream(raw, 8192);
      // "deflate" is zlib-wrapped (RFC 9110);
      // some servers send raw deflate, recognised by its first byte
      case "deflate" -> {
        Inflater inflater = new Inflater(!isZlib(body));
        yield new InflaterInputStream(raw, inflater, 8192) {
          @Override
          public void close() throws IOException {
            try {
              super.close();
            } finally {
              inflater.end(); // a given Inflater is not ended by the stream
            }
          }
        };
      }
      case "br" -> new BrotliInputStream(raw);
      default -> null;
    };
  }

  /**
   * Whether a deflate body starts with a zlib header (RFC 1950): a CMF of 0x?8, and CMF*256+FLG
   * divisible by 31.
   */
  private static boolean isZlib(byte[] body) {
    return body.length >= 2
        && (body[0] & 0x0f) == 8
        && (((body[0] & 0xff) << 8) | (body[1] & 0xff)) % 31 == 0;
  }
}
