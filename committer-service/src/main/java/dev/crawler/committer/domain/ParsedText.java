package dev.crawler.committer.domain;

import dev.crawler.events.ParsedDocument;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A parsed page's text, which comes from the parser in UTF-8 ({@code ParsedDocument.text}), as the
 * string a published document carries.
 */
public final class ParsedText {

  private ParsedText() {}

  /** The page's text; the record's buffer is left as it was. */
  public static String of(ParsedDocument parsed) {
    ByteBuffer utf8 = parsed.getText();
    if (utf8.hasArray()) {
      return new String(
          utf8.array(),
          utf8.arrayOffset() + utf8.position(),
          utf8.remaining(),
          StandardCharsets.UTF_8);
    }
    return StandardCharsets.UTF_8.decode(utf8.duplicate()).toString();
  }

  /** A text as a parsed page carries it. */
  public static ByteBuffer utf8(String text) {
    return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
  }
}
