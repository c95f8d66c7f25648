package dev.crawler.parser.domain;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A fetched response as the parser needs it.
 *
 * <p>The body array is used as given, not copied (pages are parsed at thousands per second):
 * callers must not change it while the page is parsed. Equality of pages compares the array by
 * identity, as records do.
 *
 * @param url the page's URL, the base of its relative links
 * @param headers the response headers (names compared case-insensitively; a repeated header joined
 *     with {@code ", "})
 * @param body the body bytes, already decoded from any {@code Content-Encoding}; empty when none
 * @param contentType the media type the response declared, when it declared one
 * @param charset the charset the response declared, when it declared one
 */
public record Page(
    String url,
    Map<String, String> headers,
    byte[] body,
    Optional<String> contentType,
    Optional<String> charset) {

  /** How much of the body is looked at to recognize a type or binary content. */
  private static final int SNIFF_BYTES = 1024;

  /** A header's value by case-insensitive name. */
  public Optional<String> header(String name) {
    for (Map.Entry<String, String> header : headers.entrySet()) {
      if (header.getKey().equalsIgnoreCase(name)) {
        return Optional.ofNullable(header.getValue());
      }
    }
    return Optional.empty();
  }

  /**
   * The media type: the declared one (lower-case, parameters removed), or when the response
   * declared none, {@code text/html} for a body that starts like HTML and {@code application/xml}
   * for one that starts with an XML declaration; empty when the type is unknown. A body declared as
   * {@code application/octet-stream} (or undeclared) that starts as a PDF or an RTF file does
   * ({@code %PDF-}, <code>{\rtf</code>) is one: servers often send files under that type.
   */
  public Optional<String> mediaType() {
    if (contentType.isPresent()) {
      String declared = contentType.get();
      int parameters = declared.indexOf(';');
      String type =
          (parameters < 0 ? declared : declared.substring(0, parameters))
              .strip()
              .toLowerCase(Locale.ROOT);
      if (type.equals(OCTET_STREAM)) {
        return Optional.of(sniffedFileType().orElse(type));
      }
      if (!type.isEmpty()) {
        return Optional.of(type);
      }
    }
    return sniffedFileType().or(this::sniffedMediaType);
  }

  private static final String OCTET_STREAM = "application/octet-stream";
  private static final byte[] PDF_MAGIC = "%PDF-".getBytes(StandardCharsets.ISO_8859_1);
  private static final byte[] RTF_MAGIC = "{\\rtf".getBytes(StandardCharsets.ISO_8859_1);

  private Optional<String> sniffedFileType() {
    if (startsWith(PDF_MAGIC)) {
      return Optional.of("application/pdf");
    }
    if (startsWith(RTF_MAGIC)) {
      return Optional.of("application/rtf");
    }
    return Optional.empty();
  }

  private Optional<String> sniffedMediaType() {
    int start = startsWith(UTF_8_BOM) ? UTF_8_BOM.length : 0;
    String head =
        new String(
                body,
                start,
                Math.min(body.length - start, SNIFF_BYTES),
                StandardCharsets.ISO_8859_1)
            .stripLeading()
            .toLowerCase(Locale.ROOT);
    if (head.startsWith("<!doctype html")
        || head.contains("<html")
        || head.contains("<head")
        || head.contains("<body")) {
      return Optional.of("text/html"); // also an XHTML page that opens with an XML declaration
    }
    if (head.startsWith("<?xml")) {
      return Optional.of("application/xml");
    }
    return Optional.empty();
  }

  /** The declared charset, when the response declared one this Java runtime supports. */
  public Optional<Charset> declaredCharset() {
    if (charset.isEmpty()) {
      return Optional.empty();
    }
    String name = charset.get().strip().replace("\"", "").replace("'", "");
    try {
      return Charset.isSupported(name) ? Optional.of(Charset.forName(name)) : Optional.empty();
    } catch (IllegalCharsetNameException e) {
      return Optional.empty();
    }
  }

  /**
   * Whether the body is binary rather than text: a NUL byte in its first {@value #SNIFF_BYTES}
   * bytes, which no text in an 8-bit or UTF-8 encoding has. Bodies in UTF-16 or UTF-32 (declared,
   * or with a byte order mark) are text with NULs, and never binary here.
   */
  public boolean isBinary() {
    String declared = charset.orElse("").strip().toLowerCase(Locale.ROOT);
    if (declared.startsWith("utf-16")
        || declared.startsWith("utf-32")
        || declared.startsWith("ucs-")
        || startsWith(UTF_16_BE_BOM)
        || startsWith(UTF_16_LE_BOM)) {
      return false;
    }
    int end = Math.min(body.length, SNIFF_BYTES);
    for (int i = 0; i < end; i++) {
      if (body[i] == 0) {
        return true;
      }
    }
    return false;
  }

  static final byte[] UTF_8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
  static final byte[] UTF_16_BE_BOM = {(byte) 0xFE, (byte) 0xFF};
  static final byte[] UTF_16_LE_BOM = {(byte) 0xFF, (byte) 0xFE};

  boolean startsWith(byte[] prefix) {
    if (body.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (body[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
