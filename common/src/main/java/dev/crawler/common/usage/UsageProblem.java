package dev.crawler.common.usage;

import java.util.Objects;

/**
 * A statement the crawler could not read, and so ignored: what stated nothing because it was
 * malformed, too large, or of a value its protocol does not define.
 *
 * @param source where the statement was (to be) read
 * @param message what was wrong, with a short excerpt of the input; cut to {@link
 *     #MAX_MESSAGE_CHARS}
 */
public record UsageProblem(UsageSource source, String message) {

  /** The longest message kept, in characters. */
  public static final int MAX_MESSAGE_CHARS = 300;

  /** The longest excerpt of the input a message quotes, in characters. */
  static final int MAX_EXCERPT_CHARS = 80;

  /** Bounds the message. */
  public UsageProblem {
    Objects.requireNonNull(source, "source");
    message = BoundedText.cut(message, MAX_MESSAGE_CHARS);
  }

  /** A problem whose message ends with an excerpt of the input it is about. */
  static UsageProblem about(UsageSource source, String what, String input) {
    return new UsageProblem(
        source, what + ": \"" + BoundedText.cut(input, MAX_EXCERPT_CHARS) + "\"");
  }
}
