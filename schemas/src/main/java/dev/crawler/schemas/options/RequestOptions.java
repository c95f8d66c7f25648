package dev.crawler.schemas.options;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The catalogue of per-URL options a fetch request carries ({@code FetchRequest.options}, copied
 * into the fetch result and the parsed document): the one place their names, defaults and encodings
 * are spelled. The frontier resolves them per URL from the crawl configuration and writes them; the
 * fetcher, the parser and the committer read them through their typed views. Options the frontier
 * alone acts on (scope, depth, traps, recrawl) are not here and do not travel.
 *
 * <p>Encodings: numbers in decimal, booleans {@code true}/{@code false} (anything but {@code false}
 * reads as true), enums in lower case, lists comma-separated (read split at commas, bars or white
 * space).
 */
public final class RequestOptions {

  /** Whether a fetch starts with a HEAD request whose headers the metadata filters judge. */
  public enum Head {
    /** GET only; the metadata filters judge the GET's headers before its body is read. */
    DISABLED,
    /** HEAD first; GET anyway if the server cannot answer HEAD. */
    OPTIONAL,
    /** HEAD first; a failed HEAD decides the URL's outcome. */
    REQUIRED
  }

  /** Which pages are loaded in a headless browser, their scripts run, before they are parsed. */
  public enum Render {
    /** Fetched over HTTP only: the body as the server sent it. */
    NEVER,
    /** Every page rendered by the render tier. */
    ALWAYS,
    /**
     * Fetched over HTTP; a page the parser finds built by scripts (an empty application root, a
     * noscript asking for JavaScript, scripts with almost no text or links) is rendered, and an
     * origin whose pages keep needing it is rendered from then on.
     */
    AUTO
  }

  /** Which canonical URLs a page may name. */
  public enum CanonicalScope {
    /** Within the page's registered domain; others are ignored. */
    DOMAIN,
    /** Anywhere. */
    ANY
  }

  /**
   * How redirects are handled: recorded with the target queued as a new URL, or followed within the
   * fetch up to {@code maxHops}.
   */
  public record Redirects(boolean follow, int maxHops) {
    public static final Redirects RECORD = new Redirects(false, 0);

    /** The most redirects followed within one fetch. */
    public static final int MAX_HOPS = 10;

    /** Hops followed when {@code follow} names no number. */
    public static final int DEFAULT_HOPS = 5;

    /** {@code record}, or {@code follow N}. */
    @Override
    public String toString() {
      return follow ? "follow " + maxHops : "record";
    }

    /** Hops followed within the fetch: 0 when redirects are recorded. */
    public int hopsFollowed() {
      return follow ? maxHops : 0;
    }
  }

  /** The most requests to one origin at once, whatever the configuration says. */
  public static final int MAX_CONNECTIONS_LIMIT = 16;

  private static final Map<String, RequestOption<?>> ALL = new LinkedHashMap<>();

  /** The longest delay between two requests to an origin: an hour. */
  public static final long MAX_DELAY_MS = 3_600_000;

  public static final RequestOption<Long> DELAY_MS =
      longOption("delay-ms", 1000L, new Bounds(0, MAX_DELAY_MS));
  public static final RequestOption<Integer> MAX_CONNECTIONS_PER_ORIGIN =
      intOption("max-connections-per-origin", 1, new Bounds(1, MAX_CONNECTIONS_LIMIT));
  public static final RequestOption<Long> MAX_CRAWL_DELAY_MS =
      longOption("max-crawl-delay-ms", 60_000L, Bounds.atLeast(0));
  public static final RequestOption<Long> MAX_BACKOFF_MS =
      longOption("max-backoff-ms", 600_000L, Bounds.atLeast(0));
  public static final RequestOption<Integer> PATIENCE =
      intOption("patience", 5, new Bounds(1, Integer.MAX_VALUE));
  public static final RequestOption<Long> PAUSE_MS =
      longOption("pause-ms", 600_000L, Bounds.atLeast(0));
  public static final RequestOption<Boolean> OBEY_ROBOTS_TXT =
      define("obey-robots-txt", true, RequestOptions::isNotFalse);
  public static final RequestOption<Redirects> REDIRECTS =
      define("redirects", Redirects.RECORD, RequestOptions::redirects);
  public static final RequestOption<Head> HEAD =
      define("head", Head.DISABLED, value -> enumValue(Head.class, value), RequestOptions::lower);
  public static final RequestOption<Render> RENDER =
      define(
          "render", Render.NEVER, value -> enumValue(Render.class, value), RequestOptions::lower);
  public static final RequestOption<List<String>> CONTENT_TYPES =
      define("content-types", List.of(), RequestOptions::list, RequestOptions::join);
  public static final RequestOption<Long> MAX_CONTENT_LENGTH =
      longOption("max-content-length", -1L, Bounds.atLeast(-1));
  public static final RequestOption<CanonicalScope> CANONICAL_SCOPE =
      define(
          "canonical-scope",
          CanonicalScope.DOMAIN,
          value -> enumValue(CanonicalScope.class, value),
          RequestOptions::lower);
  public static final RequestOption<String> CHECKSUM_IGNORE =
      define("checksum-ignore", "", String::strip);
  public static final RequestOption<List<String>> METADATA_CHECKSUM =
      define(
          "metadata-checksum",
          List.of(),
          value -> list(value).stream().map(h -> h.toLowerCase(Locale.ROOT)).toList(),
          RequestOptions::join);
  public static final RequestOption<Boolean> OBEY_ROBOTS_META =
      define("obey-robots-meta", true, RequestOptions::isNotFalse);
  public static final RequestOption<Boolean> OBEY_LINK_NOFOLLOW =
      define("obey-link-nofollow", true, RequestOptions::isNotFalse);
  public static final RequestOption<String> PAGINATION = define("pagination", "", String::strip);
  public static final RequestOption<String> CONTENT_KEEP =
      define("content-keep", "", String::strip);
  public static final RequestOption<String> CONTENT_DROP =
      define("content-drop", "auto", String::strip);
  public static final RequestOption<Boolean> DETECT_LANGUAGE =
      define("detect-language", true, RequestOptions::isNotFalse);
  public static final RequestOption<Boolean> MARKDOWN =
      define("markdown", true, RequestOptions::isNotFalse);
  public static final RequestOption<Boolean> STRUCTURED_DATA =
      define("structured-data", true, RequestOptions::isNotFalse);

  /** The largest chunk for retrieval, in characters; 0 publishes no chunks. */
  public static final RequestOption<Integer> CHUNK_MAX_CHARS =
      intOption("chunk-max-chars", 0, new Bounds(0, 100_000));

  /** The uses a document must allow to be published (its site's usage preferences). */
  public static final RequestOption<List<String>> REQUIRE_USAGE =
      define(
          "require-usage",
          List.of(),
          value -> list(value).stream().map(use -> use.toLowerCase(Locale.ROOT)).toList(),
          RequestOptions::join);

  /** Whether a use the site states nothing about counts as refused by {@link #REQUIRE_USAGE}. */
  public static final RequestOption<Boolean> REQUIRE_USAGE_STATED =
      define("require-usage-stated", false, value -> "true".equalsIgnoreCase(value.strip()));

  public static final RequestOption<List<Access.Header>> HEADERS =
      define("headers", List.of(), Access::readHeaders, Access::writeHeaders);
  public static final RequestOption<Boolean> COOKIES =
      define("cookies", false, value -> !"false".equalsIgnoreCase(value.strip()));
  public static final RequestOption<Optional<Access.Auth>> AUTH =
      define("auth", Optional.empty(), Access::readAuth, Access::writeAuth);
  public static final RequestOption<Optional<Access.Login>> LOGIN =
      define("login", Optional.empty(), Access::readLogin, Access::writeLogin);
  public static final RequestOption<Optional<Access.Proxy>> PROXY =
      define("proxy", Optional.empty(), Access::readProxy, Access::writeProxy);
  public static final RequestOption<Boolean> CREDENTIALS_OVER_HTTP =
      define("credentials-over-http", false, value -> "true".equalsIgnoreCase(value.strip()));

  /**
   * The version of the crawl configuration that decided the request (the frontier writes it, not
   * the configuration): every service's crawl-log line about the URL names it.
   */
  public static final RequestOption<String> CONFIG_VERSION =
      define("config-version", "", String::strip);

  private RequestOptions() {}

  /** Every option of the catalogue, by name, in the order defined. */
  public static Map<String, RequestOption<?>> all() {
    return Collections.unmodifiableMap(ALL);
  }

  public static Optional<RequestOption<?>> named(String name) {
    return Optional.ofNullable(ALL.get(name));
  }

  private static <T> RequestOption<T> define(
      String name, T defaultValue, Function<String, T> reader) {
    return define(name, defaultValue, reader, String::valueOf);
  }

  private static <T> RequestOption<T> define(
      String name, T defaultValue, Function<String, T> reader, Function<T, String> writer) {
    return define(name, defaultValue, reader, writer, null);
  }

  private static <T> RequestOption<T> define(
      String name,
      T defaultValue,
      Function<String, T> reader,
      Function<T, String> writer,
      @Nullable Bounds bounds) {
    RequestOption<T> option = new RequestOption<>(name, defaultValue, reader, writer, bounds);
    ALL.put(name, option);
    return option;
  }

  private static RequestOption<Long> longOption(String name, long defaultValue, Bounds bounds) {
    return define(name, defaultValue, value -> readNumber(value, bounds), String::valueOf, bounds);
  }

  private static RequestOption<Integer> intOption(String name, int defaultValue, Bounds bounds) {
    return define(
        name, defaultValue, value -> (int) readNumber(value, bounds), String::valueOf, bounds);
  }

  /**
   * A number as a request carries it: one below the bounds is unreadable (the default applies), one
   * above is taken as the maximum (a foreign record's larger delay stays as polite as allowed).
   */
  private static long readNumber(String value, Bounds bounds) {
    long number = Long.parseLong(value.strip());
    if (number < bounds.min()) {
      throw new IllegalArgumentException(number + " is less than " + bounds.min());
    }
    return Math.min(number, bounds.max());
  }

  private static long positiveLong(String value) {
    long number = Long.parseLong(value.strip());
    if (number < 1) {
      throw new IllegalArgumentException("not positive");
    }
    return number;
  }

  private static boolean isNotFalse(String value) {
    return !"false".equalsIgnoreCase(value.strip());
  }

  /**
   * {@code follow N} follows N hops (at most {@value Redirects#MAX_HOPS}), {@code follow} alone
   * {@value Redirects#DEFAULT_HOPS}; anything else records.
   */
  private static Redirects redirects(String value) {
    String text = value.strip().toLowerCase(Locale.ROOT);
    if (!text.startsWith("follow")) {
      return Redirects.RECORD;
    }
    String hops = text.substring("follow".length()).strip();
    return new Redirects(
        true,
        hops.isEmpty()
            ? Redirects.DEFAULT_HOPS
            : (int) Math.min(Redirects.MAX_HOPS, positiveLong(hops)));
  }

  private static <E extends Enum<E>> E enumValue(Class<E> type, String value) {
    return Enum.valueOf(type, value.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
  }

  private static String lower(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private static List<String> list(String value) {
    String text = value.strip();
    return text.isEmpty()
        ? List.of()
        : Arrays.stream(text.split("\\s*[,|\\s]\\s*")).filter(item -> !item.isEmpty()).toList();
  }

  private static String join(List<String> values) {
    return String.join(",", values);
  }
}
