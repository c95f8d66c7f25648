package dev.crawler.fetcher.domain;

import dev.crawler.schemas.options.RequestOptions;
import dev.crawler.schemas.options.RequestOptions.Head;
import dev.crawler.schemas.options.RequestOptions.Redirects;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The crawl options that steer a fetch: a typed view of a fetch request's option map through the
 * catalogue ({@link RequestOptions}; the frontier resolves them per URL from the crawl
 * configuration, docs/crawl-config.md). A missing or unreadable value falls back to the default, so
 * a bad option never fails a fetch.
 *
 * @param delayMillis the least time between the end of one request to the origin and the start of
 *     the next one, in milliseconds
 * @param maxConnections requests to the origin at once, at most
 * @param maxCrawlDelayMillis the cap on robots.txt's Crawl-delay
 * @param maxBackoffMillis the cap on the delay raised by rate limits and errors
 * @param patience persistent failures in a row before the origin is paused
 * @param pauseMillis how long an origin whose patience ran out is paused
 * @param obeysRobots whether robots.txt is obeyed
 * @param maxRedirects redirects followed within the fetch; 0 records a redirect
 * @param head whether a HEAD request goes first
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
    Head head,
    List<String> contentTypes,
    long maxContentLength) {

  /** The most connections to one origin at once, whatever the options say. */
  public static final int MAX_CONNECTIONS_LIMIT = RequestOptions.MAX_CONNECTIONS_LIMIT;

  /** The options of a request that sets none: the catalogue's defaults. */
  public static final FetchOptions DEFAULTS =
      new FetchOptions(
          RequestOptions.DELAY_MS.defaultValue(),
          RequestOptions.MAX_CONNECTIONS_PER_ORIGIN.defaultValue(),
          RequestOptions.MAX_CRAWL_DELAY_MS.defaultValue(),
          RequestOptions.MAX_BACKOFF_MS.defaultValue(),
          RequestOptions.PATIENCE.defaultValue(),
          RequestOptions.PAUSE_MS.defaultValue(),
          RequestOptions.OBEY_ROBOTS_TXT.defaultValue(),
          RequestOptions.REDIRECTS.defaultValue().hopsFollowed(),
          RequestOptions.HEAD.defaultValue(),
          RequestOptions.CONTENT_TYPES.defaultValue(),
          RequestOptions.MAX_CONTENT_LENGTH.defaultValue());

  public FetchOptions {
    contentTypes = List.copyOf(contentTypes);
  }

  /**
   * The catalogue's defaults with another delay, and robots.txt obeyed unless {@code obeysRobots}
   * is false (then no request obeys it, whatever its options say).
   */
  public static FetchOptions defaults(long delayMillis, boolean obeysRobots) {
    return new FetchOptions(
        delayMillis,
        DEFAULTS.maxConnections,
        DEFAULTS.maxCrawlDelayMillis,
        DEFAULTS.maxBackoffMillis,
        DEFAULTS.patience,
        DEFAULTS.pauseMillis,
        obeysRobots,
        DEFAULTS.maxRedirects,
        DEFAULTS.head,
        DEFAULTS.contentTypes,
        DEFAULTS.maxContentLength);
  }

  /** These options with another delay between requests (an operator's). */
  public FetchOptions withDelay(long millis) {
    return new FetchOptions(
        millis,
        maxConnections,
        maxCrawlDelayMillis,
        maxBackoffMillis,
        patience,
        pauseMillis,
        obeysRobots,
        maxRedirects,
        head,
        contentTypes,
        maxContentLength);
  }

  /** The options a request's map sets, the rest from these defaults. */
  public FetchOptions with(Map<String, String> options) {
    if (options.isEmpty()) {
      return this;
    }
    return new FetchOptions(
        RequestOptions.DELAY_MS.readFrom(options, delayMillis),
        RequestOptions.MAX_CONNECTIONS_PER_ORIGIN.readFrom(options, maxConnections),
        RequestOptions.MAX_CRAWL_DELAY_MS.readFrom(options, maxCrawlDelayMillis),
        RequestOptions.MAX_BACKOFF_MS.readFrom(options, maxBackoffMillis),
        RequestOptions.PATIENCE.readFrom(options, patience),
        RequestOptions.PAUSE_MS.readFrom(options, pauseMillis),
        obeysRobots && RequestOptions.OBEY_ROBOTS_TXT.readFrom(options, true),
        RequestOptions.REDIRECTS
            .readFrom(options, new Redirects(maxRedirects > 0, maxRedirects))
            .hopsFollowed(),
        RequestOptions.HEAD.readFrom(options, head),
        RequestOptions.CONTENT_TYPES.readFrom(options, contentTypes),
        RequestOptions.MAX_CONTENT_LENGTH.readFrom(options, maxContentLength));
  }

  /** Whether the metadata filters let a response of this media type and length through. */
  public boolean isAcceptedMetadata(@Nullable String mediaType, long contentLength) {
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
}
