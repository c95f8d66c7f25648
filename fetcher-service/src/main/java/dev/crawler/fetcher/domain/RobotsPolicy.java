package dev.crawler.fetcher.domain;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import dev.crawler.common.usage.RobotsUsageRules;
import dev.crawler.common.usage.TdmRepFile;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * What robots.txt allows (RFC 9309, parsed by crawler-commons' {@link SimpleRobotRulesParser}): a
 * 2xx robots.txt is parsed (at most {@value #MAX_BYTES} bytes) and matched on the user agent's
 * product token; a 4xx means no rules (allow all), and so does a robots.txt on an address the
 * fetcher may not connect to; a 5xx or no response means disallow all until robots.txt is fetched
 * again, sooner than a parsed one expires. Thread-safe.
 */
public final class RobotsPolicy {

  /** The most of a robots.txt that is parsed (RFC 9309 section 2.5 requires at least 500 KiB). */
  public static final int MAX_BYTES = 500 * 1024;

  /** Redirects followed to reach robots.txt (RFC 9309 section 2.3.1.2: at least five). */
  public static final int MAX_REDIRECTS = 5;

  /** How soon robots.txt is fetched again after it could not be fetched. */
  public static final Duration RETRY_AFTER_FAILURE = Duration.ofMinutes(1);

  /**
   * The {@code Sitemap:} lines of one robots.txt read unless configured: enough for a site's own
   * sitemaps (a larger set belongs in an index), few enough that reading them all waits no longer
   * than a hundred of the origin's delays before its pages.
   */
  public static final int DEFAULT_MAX_SITEMAPS = 100;

  private final String productToken;
  private final Duration ttl;
  private final int maxSitemaps;

  /**
   * @param userAgent the User-Agent header; rules are matched on its product token
   * @param ttl how long parsed rules are used before robots.txt is fetched again
   */
  public RobotsPolicy(String userAgent, Duration ttl) {
    this(userAgent, ttl, DEFAULT_MAX_SITEMAPS);
  }

  /**
   * @param maxSitemaps the {@code Sitemap:} lines of one robots.txt read, the first in its order
   */
  public RobotsPolicy(String userAgent, Duration ttl, int maxSitemaps) {
    this.productToken = productToken(userAgent);
    this.ttl = ttl;
    this.maxSitemaps = maxSitemaps;
  }

  /** The robots.txt URL of an origin. */
  public static String robotsUrl(String origin) {
    return origin + "/robots.txt";
  }

  /**
   * The product token of a User-Agent (RFC 9309 section 2.2.1): its first word up to a slash,
   * lower-cased; {@code MyBot/1.0 (+https://...)} is {@code mybot}.
   */
  public static String productToken(String userAgent) {
    String first = userAgent.strip().split("[\\s/]", 2)[0];
    return first.toLowerCase(Locale.ROOT);
  }

  /** The rules a robots.txt fetch attempt gives. */
  public BaseRobotRules rulesFrom(String robotsUrl, FetchAttempt attempt) {
    if (attempt instanceof FetchAttempt.Response response) {
      int status = response.status();
      if (status >= 200 && status < 300) {
        byte[] body =
            response.body().length > MAX_BYTES
                ? Arrays.copyOf(response.body(), MAX_BYTES)
                : response.body();
        // no limit on Crawl-delay here: the parser would turn a long one into "disallow all"; the
        // origin's max-crawl-delay-ms option caps it instead (OriginPoliteness)
        SimpleRobotRulesParser parser =
            new SimpleRobotRulesParser(Long.MAX_VALUE, SimpleRobotRulesParser.DEFAULT_MAX_WARNINGS);
        return parser.parseContent(
            robotsUrl, body, response.contentType().orElse("text/plain"), List.of(productToken));
      }
      if (status >= 400 && status < 500) {
        return new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_ALL);
      }
    }
    if (attempt instanceof FetchAttempt.Failure failure
        && failure.kind() == FetchAttempt.FailureKind.ADDRESS_DENIED) {
      // robots.txt (or a redirect of it) is on an address the fetcher may not reach: it is not
      // available, as a 4xx is; each page is judged by the same address policy when it is fetched
      return new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_ALL);
    }
    // 5xx, an unfollowed redirect, or no response: the origin may be in trouble;
    // do not crawl it for now
    return new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_NONE);
  }

  /**
   * The usage preferences a robots.txt fetch attempt states for this crawler (Content-Usage and
   * Content-Signal lines); none unless it answered 2xx.
   */
  public RobotsUsageRules usageFrom(FetchAttempt attempt) {
    if (attempt instanceof FetchAttempt.Response response
        && response.status() >= 200
        && response.status() < 300) {
      return RobotsUsageRules.parse(response.body(), productToken);
    }
    return RobotsUsageRules.NONE;
  }

  /** The usage preferences a tdmrep.json fetch attempt states; none unless it answered 2xx. */
  public static TdmRepFile tdmRepFrom(FetchAttempt attempt) {
    if (attempt instanceof FetchAttempt.Response response
        && response.status() >= 200
        && response.status() < 300) {
      return TdmRepFile.parse(response.body());
    }
    return TdmRepFile.NONE;
  }

  /** The TDMRep file of an origin (W3C TDMRep, section 3.1). */
  public static String tdmRepUrl(String origin) {
    return origin + "/.well-known/tdmrep.json";
  }

  /** How long rules are good for: the TTL, or the retry delay when robots.txt could not be read. */
  public Duration validity(BaseRobotRules rules) {
    return rules.isAllowNone() ? RETRY_AFTER_FAILURE : ttl;
  }

  /** Robots.txt's Crawl-delay for our user agent, in milliseconds; empty when it sets none. */
  public static OptionalLong crawlDelayMillis(BaseRobotRules rules) {
    long delay = rules.getCrawlDelay();
    return delay == BaseRobotRules.UNSET_CRAWL_DELAY || delay < 0
        ? OptionalLong.empty()
        : OptionalLong.of(delay);
  }

  /**
   * The sitemaps robots.txt names ({@code Sitemap:} lines), as absolute URLs: the first {@code
   * maxSitemaps} distinct ones (a robots.txt naming thousands would otherwise hold the origin's
   * pages behind them).
   */
  public List<String> sitemaps(BaseRobotRules rules) {
    return rules.getSitemaps().stream().distinct().limit(maxSitemaps).toList();
  }

  /** Whether the rules allow fetching the URL. */
  public static boolean isAllowedByRobots(BaseRobotRules rules, String url) {
    return rules.isAllowed(url);
  }
}
