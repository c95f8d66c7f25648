package dev.crawler.frontier.rules;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The shapes of URL that crawler traps produce, recognized from the URL alone: a path that repeats
 * itself ({@code /a/a/a/}, {@code /x/y/x/y/x/y/}, as a relative link {@code a/} on page {@code /a/}
 * makes) and a dated URL whose template a calendar walks day after day. Pure and thread-safe.
 */
public final class UrlTraps {

  /**
   * The longest run of segments whose repetition is looked for (bounds the work on a hostile path).
   */
  public static final int MAX_RUN = 10;

  /**
   * A date in a path or query: {@code 2024-05-17}, {@code 2024/05}, {@code 17.05.2024}, {@code
   * 20240517}, or a parameter holding a year ({@code ?year=2024&month=5}).
   */
  private static final Pattern DATE =
      Pattern.compile(
          "(?<!\\d)(?:1[6-9]|2[01])\\d\\d[-/_.](?:0?[1-9]|1[0-2])(?!\\d)"
              + "|(?<!\\d)(?:0?[1-9]|[12]\\d|3[01])[-/_.](?:0?[1-9]|1[0-2])[-/_.](?:1[6-9]|2[01])\\d\\d(?!\\d)"
              + "|(?<!\\d)(?:19|20)\\d\\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\\d|3[01])(?!\\d)"
              + "|=(?:1[6-9]|2[01])\\d\\d(?:&|$)");

  private static final Pattern DIGITS = Pattern.compile("\\d+");

  private UrlTraps() {}

  /**
   * A run of one to {@value #MAX_RUN} segments repeated in a row.
   *
   * @param run the repeated segments, joined by {@code /}
   * @param times how many times the run appears in a row
   */
  public record Repetition(String run, int times) {}

  /**
   * The run of segments repeated most often in a row when that is more than {@code max} times: with
   * {@code max} 2, {@code /a/a/} passes and {@code /a/a/a/} is a repetition of {@code a} 3 times,
   * as is {@code /x/y/x/y/x/y/} of {@code x/y}. Only consecutive repetitions count: {@code
   * /en/docs/en/} is fine.
   */
  public static Optional<Repetition> repeatedRun(List<String> segments, int max) {
    Repetition worst = null;
    int size = segments.size();
    for (int length = 1; length <= MAX_RUN && length * (max + 1) <= size; length++) {
      for (int start = 0; start + length * (max + 1) <= size; start++) {
        int times = 1;
        while (start + (times + 1) * length <= size
            && isRepeatedAt(segments, start, length, start + times * length)) {
          times++;
        }
        if (times > 1 && times > max && (worst == null || times > worst.times())) {
          worst = new Repetition(String.join("/", segments.subList(start, start + length)), times);
        }
      }
    }
    return Optional.ofNullable(worst);
  }

  private static boolean isRepeatedAt(List<String> segments, int start, int length, int at) {
    for (int i = 0; i < length; i++) {
      if (!segments.get(start + i).equals(segments.get(at + i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The template of a URL with a date in its path or query: its origin, path and query with every
   * run of digits replaced by {@code #} ({@code http://a.example/cal/#-#-#}); empty when the URL
   * has no date. Two URLs with the same template differ only in their numbers: a calendar's days,
   * or the dated pages of an archive.
   */
  public static Optional<String> datedTemplate(String url) {
    if (!hasFourDigits(url)) {
      return Optional
          .empty(); // every date shape has a run of four digits: most URLs are decided without
      // parsing
    }
    try {
      return datedTemplate(CandidateUrl.of(url, 0));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  private static boolean hasFourDigits(String url) {
    int run = 0;
    for (int i = 0; i < url.length(); i++) {
      char c = url.charAt(i);
      run = c >= '0' && c <= '9' ? run + 1 : 0;
      if (run == 4) {
        return true;
      }
    }
    return false;
  }

  /** {@link #datedTemplate(String)} of a URL taken apart already. */
  public static Optional<String> datedTemplate(CandidateUrl url) {
    String address = url.query().map(query -> url.path() + '?' + query).orElse(url.path());
    if (!DATE.matcher(address).find()) {
      return Optional.empty();
    }
    return Optional.of(url.origin() + DIGITS.matcher(address).replaceAll("#"));
  }
}
