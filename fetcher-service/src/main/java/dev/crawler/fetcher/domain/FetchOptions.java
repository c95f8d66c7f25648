package dev.crawler.fetcher.domain;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The crawl options that steer a fetch, read from a fetch request's option map (the frontier
 * resolves them per URL from the crawl configuration; DESIGN.md section 5). A missing or unreadable
 * value falls back to the fetcher's default, so a bad option never fails a fetch.
 *
 * @param delayMillis the minimum time between the end of one request to the origin and the start of
 *     the next
 * @param maxConnections requests to the origin at once, at most
 * @param maxCrawlDelayMillis the cap on robots.txt's Crawl-delay
 * @param maxBackoffMillis the cap on the delay raised by rate limits and errors
 * @param patience persistent failures in a row before the origin is paused (seed 003: 5)
 * @param pauseMillis how long an origin whose patience ran out is paused
 * @param obeysRobots whether robots.txt is obeyed
 * @param maxRedirects redirects followed within the fetch; 0 records a redirect (seed 003)
 * @param head whether a HEAD request goes first (seed 002)
 * @param contentTypes the media types fetched (exact, or {@code type/*}); empty for all
 * @param maxContentLength the largest Content-Length fetched; -1 for no limit
 */
public record FetchOptions(
    long delayMillis,
    int maxConnections,
    long maxCrawlDelayMillis,
    long maxBackoffMillis,
    int patience,
    long pauseMillis,
    boolean obeysRobots,
    int maxRedirects,
    HeadMode head,
    List<String> contentTypes,
    long maxContentLength) {

  public static final String DELAY = "delay-ms";
  public static final String MAX_CONNECTIONS = "max-connections-per-origin";
  public static final String MAX_CRAWL_DELAY = "max-crawl-delay-ms";
  public static final String MAX_BACKOFF = "max-backoff-ms";
  public static final String PATIENCE = "patience";
  public static final String PAUSE = "pause-ms";
  public static final String OBEY_ROBOTS = "obey-robots-txt";
  public static final String REDIRECTS = "redirects";
  public static final String HEAD = "head";
  public static final String CONTENT_TYPES = "content-types";
  public static final String MAX_CONTENT_LENGTH = "max-content-length";

  /** The most redirects followed within one fetch. */
  public static final int MAX_REDIRECTS = 10;

  /** The most connections to one origin at once, whatever the options say. */
  public static final int MAX_CONNECTIONS_LIMIT = 16;

  /**
   * Whether a fetch starts with a HEAD request, whose headers the metadata filters judge (seed
   * 002).
   */
  public enum HeadMode {
    /** GET only; the filters judge the GET's headers before its body is read. */
    DISABLED,
    /** HEAD first; if the server cannot answer it, GET anyway. */
    OPTIONAL,
    /** HEAD first; a failed HEAD decides the URL's outcome. */
    REQUIRED
  }

  public FetchOptions {
    contentTypes = List.copyOf(contentTypes);
  }

  /**
   * The defaults: one connection, 60 s crawl-delay cap, 10 min back-off cap, patience 5, 10 min
   * pause.
   */
  public static FetchOptions defaults(long delayMillis, boolean obeysRobots) {
    return new FetchOptions(
        delayMillis,
        1,
        60_000,
        600_000,
        5,
        600_000,
        obeysRobots,
        0,
        HeadMode.DISABLED,
        List.of(),
        -1);
  }

  /** The options a request's map sets, the rest from these defaults. */
  public FetchOptions with(Map<String, String> options) {
    if (options.isEmpty()) {
      return this;
    }
    return new FetchOptions(
        read(options, DELAY, FetchOptions::nonNegativeLong, delayMillis),
        Math.min(
            MAX_CONNECTIONS_LIMIT,
            read(options, MAX_CONNECTIONS, value -> (int) positiveLong(value), maxConnections)),
        read(options, MAX_CRAWL_DELAY, FetchOptions::nonNegativeLong, maxCrawlDelayMillis),
        read(options, MAX_BACKOFF, FetchOptions::nonNegativeLong, maxBackoffMillis),
        read(options, PATIENCE, value -> (int) positiveLong(value), patience),
        read(options, PAUSE, FetchOptions::nonNegativeLong, pauseMillis),
        obeysRobots && read(options, OBEY_ROBOTS, FetchOptions::bool, true),
        read(options, REDIRECTS, FetchOptions::redirects, maxRedirects),
        read(
            options, HEAD, value -> HeadMode.valueOf(value.strip().toUpperCase(Locale.ROOT)), head),
        read(options, CONTENT_TYPES, FetchOptions::list, contentTypes),
        read(options, MAX_CONTENT_LENGTH, Long::parseLong, maxContentLength));
  }

  /**
   * Whether the metadata filters let a response of this media type and length through (seed 002).
   */
  public boolean isAcceptedMetadata(
      @org.jspecify.annotations.Nullable String mediaType, long contentLength) {
    if (maxContentLength >= 0 && contentLength > maxContentLength) {
      return false;
    }
    if (contentTypes.isEmpty() || mediaType == null) {
      return true; // an unnamed type is left for the parser to judge
    }
    String type = mediaType.toLowerCase(Locale.ROOT);
    for (String accepted : contentTypes) {
      String pattern = accepted.toLowerCase(Locale.ROOT);
      if (pattern.equals(type)
          || pattern.equals("*/*")
          || (pattern.endsWith("/*")
              && type.startsWith(pattern.substring(0, pattern.length() - 1)))) {
        return true;
      }
    }
    return false;
  }

  /** Whether any metadata filter is set. */
  public boolean hasMetadataFilters() {
    return !contentTypes.isEmpty() || maxContentLength >= 0;
  }

  private static <T> T read(
      Map<String, String> options, String name, Function<String, T> parser, T fallback) {
    String value = options.get(name);
    if (value == null) {
      return fallback;
    }
    try {
      return parser.apply(value);
    } catch (RuntimeException e) {
      return fallback; // the frontier validated the configuration; an unreadable value keeps the
      // default
    }
  }

  private static long nonNegativeLong(String value) {
    long number = Long.parseLong(value.strip());
    if (number < 0) {
      throw new IllegalArgumentException("negative");
    }
    return number;
  }

  private static long positiveLong(String value) {
    long number = Long.parseLong(value.strip());
    if (number < 1) {
      throw new IllegalArgumentException("not positive");
    }
    return number;
  }

  private static boolean bool(String value) {
    return !"false".equalsIgnoreCase(value.strip());
  }

  /**
   * {@code record} is 0; {@code follow N} is N (at most {@value #MAX_REDIRECTS}); {@code follow}
   * alone is 5.
   */
  private static int redirects(String value) {
    String text = value.strip().toLowerCase(Locale.ROOT);
    if (!text.startsWith("follow")) {
      return 0;
    }
    String hops = text.substring("follow".length()).strip();
    return hops.isEmpty() ? 5 : (int) Math.min(MAX_REDIRECTS, positiveLong(hops));
  }

  private static List<String> list(String value) {
    String text = value.strip();
    return text.isEmpty()
        ? List.of()
        : Arrays.stream(text.split("\\s*[,|\\s]\\s*")).filter(item -> !item.isEmpty()).toList();
  }
}
