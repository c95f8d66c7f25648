package dev.crawler.frontier.rules;

import dev.crawler.common.config.Durations;
import dev.crawler.schemas.options.Access;
import dev.crawler.schemas.options.Bounds;
import dev.crawler.schemas.options.RequestOption;
import dev.crawler.schemas.options.RequestOptions;
import dev.crawler.schemas.options.RequestOptions.CanonicalScope;
import dev.crawler.schemas.options.RequestOptions.Head;
import dev.crawler.schemas.options.RequestOptions.Redirects;
import dev.crawler.schemas.options.RequestOptions.Render;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One per-URL option that the crawl configuration's global section, sites and rules can assign
 * ("the majority of the options can be specified in the recursive rules"). Every option goes
 * through this one mechanism: a name, a parser that turns a configuration value into a typed value
 * (or says why it cannot), and a default.
 *
 * @param <T> the value type
 */
public final class CrawlOption<T> {

  /** What happens to a URL no rule filtered. */
  public enum DefaultAllow {
    /** It is crawled. */
    ALLOW,
    /** It is dropped and no record is kept. */
    DISALLOW,
    /** It is dropped and the reason is logged. */
    DISALLOW_LOG
  }

  /**
   * Which URLs a crawl stays within: the seeds' origins, their hosts or sites, or their directories
   * ("index entire site").
   */
  public enum Scope {
    /** The origins of the seeds. */
    ORIGIN,
    /** The hosts of the seeds, any scheme or port. */
    HOST,
    /** The registered domains of the seeds. */
    DOMAIN,
    /** The seed's directory and below (FDSE's "index entire site"). */
    DIRECTORY,
    /** Anywhere. */
    ANY
  }

  /** FDSE's default "Ignore Links To" list, plus binary types of today. */
  public static final List<String> DEFAULT_IGNORED_EXTENSIONS =
      List.of(
          "gif", "jpg", "jpe", "js", "css", "wav", "ram", "ra", "mpeg", "mpg", "avi", "zip", "exe",
          "doc", "xls", "pdf", "gz", "jpeg", "png", "webp", "svg", "ico", "bmp", "tif", "tiff",
          "mp3", "mp4", "m4a", "m4v", "mov", "webm", "ogg", "flac", "woff", "woff2", "ttf", "otf",
          "eot", "tar", "tgz", "bz2", "xz", "7z", "rar", "dmg", "iso", "bin", "msi", "apk", "docx",
          "xlsx", "ppt", "pptx");

  private static final Map<String, CrawlOption<?>> ALL = new LinkedHashMap<>();

  public static final CrawlOption<DefaultAllow> DEFAULT_ALLOW =
      define(
          "default-allow",
          DefaultAllow.ALLOW,
          value -> enumValue(DefaultAllow.class, value),
          "The fate of a URL no rule filtered.");
  public static final CrawlOption<Scope> SCOPE =
      define(
          "scope",
          Scope.ORIGIN,
          value -> enumValue(Scope.class, value),
          "`origin` (the seeds' origins), `host`, `domain` (registered domain), `directory` (the seed's directory and below), `any`.");
  public static final CrawlOption<Integer> MAX_DEPTH =
      intOption(
          "max-depth", -1, -1, "The deepest link depth crawled (seeds are 0); -1 for no limit.");
  public static final CrawlOption<Integer> MAX_URL_LENGTH =
      intOption(
          "max-url-length",
          2048,
          1,
          "The longest URL crawled, in characters (FDSE's default was 128).");
  public static final CrawlOption<Boolean> FOLLOW_QUERY_STRINGS =
      define(
          "follow-query-strings",
          true,
          CrawlOption::bool,
          "Whether URLs with a query string are crawled.");
  public static final CrawlOption<List<String>> ALLOWED_QUERY_PARAMETERS =
      define(
          "allowed-query-parameters",
          List.of(),
          CrawlOption::list,
          "When not empty, the only query parameters a crawled URL may have.");
  public static final CrawlOption<List<String>> IGNORE_EXTENSIONS =
      define(
          "ignore-extensions",
          DEFAULT_IGNORED_EXTENSIONS,
          value -> lowerCase(list(value)),
          "A list (`[gif, jpg]`) or `gif|jpg`; matched at the end of the whole address, case-insensitive, as FDSE's `\\.(gif|jpg…)$` on the URL: `/img/LOGO.GIF` and `/get?f=report.pdf` are ignored, `/doc.pdf?x=1` is not; sitemaps (`.xml.gz`) are read whatever their extension. The default keeps FDSE's `doc`, `xls` and `pdf` (and `docx`, `xlsx`, `ppt`, `pptx`) although the parser imports those files: a crawl configured for pages fetches no documents it did not ask for. To import them, give the list without them.");
  public static final CrawlOption<List<String>> SCHEMES =
      define(
          "schemes",
          List.of("http", "https"),
          CrawlOption::schemes,
          "The schemes followed, `http` and/or `https` (`[http]` is FDSE's protocol rule); other schemes are `FILTERED` (`UNSUPPORTED_SCHEME`).");
  public static final CrawlOption<Integer> MAX_REPEATED_SEGMENTS =
      intOption(
          "max-repeated-segments",
          2,
          -1,
          "How many times in a row a path segment, or a run of up to 10 segments, may appear: `/a/a/` passes, `/a/a/a/` and `/x/y/x/y/x/y/` are `FILTERED` (`TRAP_REPEATED_SEGMENT`); `-1` for no limit.");
  public static final CrawlOption<Integer> MAX_PATH_SEGMENTS =
      intOption(
          "max-path-segments",
          20,
          -1,
          "The most path segments (`/a/b/c` has 3); more is `FILTERED` (`TRAP_TOO_MANY_SEGMENTS`); `-1` for no limit.");
  public static final CrawlOption<Integer> MAX_QUERY_PARAMETERS =
      intOption(
          "max-query-parameters",
          10,
          -1,
          "The most query parameters a crawled URL has; more is FILTERED (TRAP_TOO_MANY_PARAMETERS); -1 for no limit.");
  public static final CrawlOption<Integer> MAX_CALENDAR_HOPS =
      intOption(
          "max-calendar-hops",
          5,
          -1,
          "Links followed in a row between dated URLs of one template (the same address but for its numbers, with a date in it: a calendar's next day or month); a URL one hop further is FILTERED (TRAP_CALENDAR); -1 for no limit.");
  public static final CrawlOption<Long> MAX_PAGES_PER_ORIGIN =
      longOption(
          "max-pages-per-origin",
          -1L,
          -1,
          "The most URLs of an origin admitted for fetching, ever (sitemaps aside); later ones are `FILTERED` (`BUDGET_ORIGIN`) once and stay known; `-1` for no limit.");
  public static final CrawlOption<Long> MAX_PAGES_PER_SITE =
      longOption(
          "max-pages-per-site",
          -1L,
          -1,
          "The most URLs of one site (registered domain, all its origins) admitted for fetching, ever; later ones are FILTERED (BUDGET_SITE) and stay known; -1 for no limit.");
  public static final CrawlOption<Long> DELAY_MS =
      carriedLong(
          RequestOptions.DELAY_MS,
          "Milliseconds between the end of one request to an origin and the start of the next.");
  public static final CrawlOption<Boolean> OBEY_ROBOTS_TXT =
      carried(
          RequestOptions.OBEY_ROBOTS_TXT,
          CrawlOption::bool,
          "Whether robots.txt is obeyed. Turning it off is logged loudly.");
  public static final CrawlOption<Boolean> OBEY_ROBOTS_META =
      carried(
          RequestOptions.OBEY_ROBOTS_META,
          CrawlOption::bool,
          "Whether robots meta nofollow is obeyed (false is FDSE's \"rogue\" mode).");
  public static final CrawlOption<Boolean> OBEY_LINK_NOFOLLOW =
      carried(
          RequestOptions.OBEY_LINK_NOFOLLOW,
          CrawlOption::bool,
          "Whether a link marked rel=\"nofollow\" is left out (a page linking it elsewhere without the mark still counts).");
  public static final CrawlOption<Redirects> REDIRECTS =
      carried(
          RequestOptions.REDIRECTS,
          CrawlOption::redirects,
          "`record` (the target is queued as a new URL), `follow N` (N ≤ 10 hops within the fetch; the chain is recorded and loops stop it).");

  public static final CrawlOption<Integer> MAX_CONNECTIONS_PER_ORIGIN =
      carriedInt(
          RequestOptions.MAX_CONNECTIONS_PER_ORIGIN,
          "Requests to one origin at once, at most (1 to 16); each waits delay-ms after the previous one ended.");
  public static final CrawlOption<Long> MAX_CRAWL_DELAY_MS =
      carriedLong(
          RequestOptions.MAX_CRAWL_DELAY_MS,
          "The cap on robots.txt's Crawl-delay, in milliseconds; the cap is logged when it applies.");
  public static final CrawlOption<Long> MAX_BACKOFF_MS =
      carriedLong(
          RequestOptions.MAX_BACKOFF_MS,
          "The cap on the delay raised by rate limits (429, 503 + `Retry-After`) and failures; the raised delay halves after each quiet minute.");
  public static final CrawlOption<Integer> PATIENCE =
      carriedInt(
          RequestOptions.PATIENCE,
          "Failures that look persistent (refused, unknown host, not HTTP, repeated 5xx or timeouts) before the origin is paused; an answer restores it.");
  public static final CrawlOption<Long> PAUSE_MS =
      carriedLong(
          RequestOptions.PAUSE_MS,
          "How long an origin out of patience is paused; its URLs stay queued in the frontier (`DEFERRED`).");
  public static final CrawlOption<Head> HEAD =
      carried(
          RequestOptions.HEAD,
          value -> enumValue(Head.class, value),
          "`disabled`, `optional` (HEAD first, GET anyway if HEAD fails), `required` (a failed HEAD decides).");
  public static final CrawlOption<Render> RENDER =
      carried(
          RequestOptions.RENDER,
          value -> enumValue(Render.class, value),
          "`never` (HTTP only), `always` (every page loaded in a headless browser by the render tier, its scripts run), `auto` (over HTTP first; a page the parser finds built by scripts is rendered, and an origin whose pages keep needing it is rendered from then on).");
  public static final CrawlOption<List<String>> CONTENT_TYPES =
      carried(
          RequestOptions.CONTENT_TYPES,
          value -> lowerCase(list(value)),
          "A list of media types (`text/html`, `text/*`); when not empty, other types are `FILTERED` (`METADATA`) before their body is read.");
  public static final CrawlOption<Long> MAX_CONTENT_LENGTH =
      carriedLong(
          RequestOptions.MAX_CONTENT_LENGTH,
          "The largest Content-Length fetched, in bytes; larger is FILTERED (METADATA) before its body is read; -1 for no limit.");

  public static final CrawlOption<CanonicalScope> CANONICAL_SCOPE =
      carried(
          RequestOptions.CANONICAL_SCOPE,
          value -> enumValue(CanonicalScope.class, value),
          "A canonical outside the page's registered domain is ignored unless any.");
  public static final CrawlOption<String> CHECKSUM_IGNORE =
      carried(
          RequestOptions.CHECKSUM_IGNORE,
          value -> String.valueOf(value).strip(),
          "A CSS selector of the parts left out of the content checksum (`footer, .clock`): a changed clock does not make a page look changed.");
  public static final CrawlOption<List<String>> METADATA_CHECKSUM =
      carried(
          RequestOptions.METADATA_CHECKSUM,
          value -> lowerCase(list(value)),
          "The response headers the metadata checksum covers (etag, last-modified, …); empty for none.");

  public static final CrawlOption<Integer> RECRAWL_INTERVAL_PER_URL =
      intOption(
          "recrawl.interval-per-url",
          0,
          0,
          "Minutes after which a fetched URL is fetched again (continuous refresh; due times are an index in the frontier's state, scanned by time); `0` for never. A rediscovery before the due time is logged `PREMATURE` (once per due time); a sitemap `lastmod` newer than the last fetch makes the URL due at once; its `changefreq` sets the interval.");
  public static final CrawlOption<Boolean> RECRAWL_ADAPTIVE =
      define(
          "recrawl.adaptive",
          false,
          CrawlOption::bool,
          "Whether a URL's refresh interval halves when its content changed and doubles when it did not, between recrawl.min-interval and recrawl.max-interval.");
  public static final CrawlOption<Integer> RECRAWL_MIN_INTERVAL =
      intOption(
          "recrawl.min-interval", 60, 1, "The shortest adaptive refresh interval, in minutes.");
  public static final CrawlOption<Integer> RECRAWL_MAX_INTERVAL =
      intOption(
          "recrawl.max-interval", 43_200, 1, "The longest adaptive refresh interval, in minutes.");
  public static final CrawlOption<Integer> RECRAWL_ERROR_INTERVAL =
      intOption(
          "recrawl.error-interval",
          0,
          0,
          "Minutes after which a URL whose fetch failed is tried again; 0 for the refresh interval.");

  /** What a recrawl does with a URL no page links to any more (orphans). */
  public enum Orphans {
    /** It is fetched again and decided by the answer. */
    PROCESS,
    /** It is left as it is: not fetched, its document kept. */
    IGNORE,
    /** Its document is deleted. */
    DELETE
  }

  public static final CrawlOption<Orphans> ORPHANS =
      define(
          "orphans",
          Orphans.PROCESS,
          value -> enumValue(Orphans.class, value),
          "What `crawler crawl --force-recrawl` does with a URL no page links to any more: `process` (fetched again, decided by the answer), `ignore` (left as it is, its document kept), `delete` (its document deleted, reason `ORPHAN`).");

  public static final CrawlOption<Boolean> RECRAWL_ACTIVE =
      define(
          "recrawl.active",
          false,
          CrawlOption::bool,
          Level.GLOBAL,
          "The global switch of the event-driven recrawl: with it and a site's recrawl.site-active on, the site's documents are recrawled by events.");
  public static final CrawlOption<Boolean> RECRAWL_SITE_ACTIVE =
      define(
          "recrawl.site-active",
          true,
          CrawlOption::bool,
          Level.SITE,
          "Whether the site takes part when `recrawl.active` is on (both must be on).");
  public static final CrawlOption<Duration> RECRAWL_INTERVAL =
      define(
          "recrawl.interval",
          Duration.ofMinutes(5),
          CrawlOption::duration,
          Level.GLOBAL,
          "How far apart the recrawl events run: minutes, or a number with s, m, h or d (30s, 5m, 2h, 1d).");
  public static final CrawlOption<Integer> RECRAWL_RUNS_PER_EVENT =
      intOption(
          "recrawl.runs-per-event",
          1,
          1,
          Level.SITE,
          "Requests one event makes for its site (one per page of a document).");
  public static final CrawlOption<Integer> RECRAWL_MAX_COUNT =
      intOption(
          "recrawl.max-count",
          1,
          1,
          Level.SITE,
          "How many times one document is recrawled at most.");
  public static final CrawlOption<Integer> RECRAWL_MIN_MINUTES_BETWEEN =
      intOption(
          "recrawl.min-minutes-between",
          0,
          0,
          Level.SITE,
          "The least time between two recrawls of one document.");
  public static final CrawlOption<Integer> RECRAWL_NEWER_THAN_MINUTES =
      intOption(
          "recrawl.newer-than-minutes",
          0,
          0,
          Level.SITE,
          "Only documents published less than this long ago are recrawled (one exactly that old is not); `0` for no limit.");
  public static final CrawlOption<String> PAGINATION =
      carried(
          RequestOptions.PAGINATION,
          value -> String.valueOf(value).strip(),
          "`rel=next` (`<link rel=next>` or `<a rel=next>`) or a CSS selector of the next-page link (`a.next-page`): the pages of a document are published as one, in page order; empty for single pages.");
  public static final CrawlOption<String> CONTENT_KEEP =
      carried(
          RequestOptions.CONTENT_KEEP,
          value -> String.valueOf(value).strip(),
          "A CSS selector of a page's content (`article`, `#content`): its text and content checksum are taken from what it matches (the outermost matches, in order); empty, or where it matches nothing, the whole body.");
  public static final CrawlOption<String> CONTENT_DROP =
      carried(
          RequestOptions.CONTENT_DROP,
          value -> String.valueOf(value).strip(),
          "The parts of a page left out of its text and content checksum: `auto` drops `nav`, `aside` and the page's `header` and `footer` (not an article's own) when the page has a `main` or an `article`; `none` drops nothing; anything else is a CSS selector of what is dropped on every page. Links, the canonical and the next page are read from the whole page first.");
  public static final CrawlOption<Boolean> DETECT_LANGUAGE =
      carried(
          RequestOptions.DETECT_LANGUAGE,
          CrawlOption::bool,
          "Whether the parser detects the language of the text (the declared one stands whenever the detector is not confident); false keeps the declared one only.");
  public static final CrawlOption<Boolean> MARKDOWN =
      carried(
          RequestOptions.MARKDOWN,
          CrawlOption::bool,
          "Whether documents carry their main content as markdown (headings, lists, tables, code with its language, links as absolute URLs; bounded like the text).");
  public static final CrawlOption<Boolean> STRUCTURED_DATA =
      carried(
          RequestOptions.STRUCTURED_DATA,
          CrawlOption::bool,
          "Whether documents carry the structured data their page publishes: JSON-LD, microdata, Open Graph and Twitter cards.");
  public static final CrawlOption<Integer> CHUNK_MAX_CHARS =
      carriedInt(
          RequestOptions.CHUNK_MAX_CHARS,
          "The largest chunk for retrieval, in characters: a document's markdown is cut into chunks (sections kept whole where they fit) published on `crawl.chunks`, and the chunks a new version no longer has are deleted; 0 publishes none.");
  public static final CrawlOption<List<String>> REQUIRE_USAGE =
      carried(
          RequestOptions.REQUIRE_USAGE,
          value -> lowerCase(list(value)),
          "Uses a document's site must allow for it to be published (`ai-training`, `genai-training`, `ai-use`, `search`, `tdm`, `image-ai-training`): a document whose usage preferences refuse one is not published (`USAGE_REFUSED`, a published one deleted).");
  public static final CrawlOption<Boolean> REQUIRE_USAGE_STATED =
      carried(
          RequestOptions.REQUIRE_USAGE_STATED,
          CrawlOption::bool,
          "With `require-usage`: whether a use the site states nothing about counts as refused (`false`: only a stated refusal keeps a document out).");

  public static final CrawlOption<List<Access.Header>> HEADERS =
      carried(
          RequestOptions.HEADERS,
          SiteAccessOptions::headers,
          "Request headers, a mapping: `{Accept-Language: de, X-Api-Key: '${env:API_KEY}'}`; `Authorization`, `Cookie` and `Proxy-Authorization` must be [secret references](#sites-behind-logins-and-proxies); a header holding a reference is a credential.");
  public static final CrawlOption<Boolean> COOKIES =
      carried(
          RequestOptions.COOKIES,
          CrawlOption::bool,
          "Whether each origin keeps a cookie jar of what it sets (its own: never shared across origins, ports included; in memory only); a login implies one.");
  public static final CrawlOption<Optional<Access.Auth>> AUTH =
      carried(
          RequestOptions.AUTH,
          SiteAccessOptions::auth,
          "HTTP authentication: {scheme: basic | digest, user: NAME, password: ${env:NAME} | ${file:/path}}; sent only to the URL's origin, over verified TLS.");
  public static final CrawlOption<Optional<Access.Login>> LOGIN =
      carried(
          RequestOptions.LOGIN,
          SiteAccessOptions::login,
          "A form login made before the origin's first page and again when its session is over: {url, method: post | get, fields: {NAME: VALUE}, success-cookie: NAME, success-text: TEXT}; secret fields are references.");
  public static final CrawlOption<Optional<Access.Proxy>> PROXY =
      carried(
          RequestOptions.PROXY,
          SiteAccessOptions::proxy,
          "The proxy requests go through: http://host:port (CONNECT for https) or socks5://host:port, or {url, user, password: ${env:NAME}}; direct for none.");
  public static final CrawlOption<Boolean> CREDENTIALS_OVER_HTTP =
      carried(
          RequestOptions.CREDENTIALS_OVER_HTTP,
          CrawlOption::bool,
          "Whether credentials (auth, login, credential headers) may be sent over plain http; without it they go over https whose certificate verified only.");

  public static final CrawlOption<Boolean> SITEMAP_XML =
      define(
          "sitemap-xml",
          true,
          CrawlOption::bool,
          "Whether /sitemap.xml of each seed's origin is read once for its URLs; sitemaps robots.txt names are read either way.");

  /** Where an option may be assigned. */
  public enum Level {
    /**
     * Only in {@code global}: it concerns the whole crawl (the recrawl events' switch and
     * interval).
     */
    GLOBAL,
    /**
     * In {@code global} and in a site's options: it concerns a site as a whole (its recrawl
     * policy).
     */
    SITE,
    /** Anywhere, rules included: it is resolved per URL. */
    URL
  }

  private final String name;
  private final T defaultValue;
  private final Function<Object, T> parser;
  private final Level level;
  private final @Nullable RequestOption<T> carriedAs;
  private final @Nullable Bounds bounds;
  private final String doc;

  private CrawlOption(
      String name,
      T defaultValue,
      Function<Object, T> parser,
      Level level,
      @Nullable RequestOption<T> carriedAs,
      @Nullable Bounds bounds,
      String doc) {
    this.name = name;
    this.defaultValue = defaultValue;
    this.parser = parser;
    this.level = level;
    this.carriedAs = carriedAs;
    this.bounds = bounds;
    this.doc = doc;
  }

  /**
   * An option fetch requests carry to the services that act on it: its name and default are the
   * catalogue's ({@link RequestOptions}), its configuration parser is the frontier's.
   */
  private static <T> CrawlOption<T> carried(
      RequestOption<T> wire, Function<Object, T> parser, String doc) {
    return add(
        new CrawlOption<>(
            wire.name(),
            wire.defaultValue(),
            parser,
            Level.URL,
            wire,
            wire.bounds().orElse(null),
            doc));
  }

  /** A whole-number option requests carry, within the bounds the request catalogue gives it. */
  private static CrawlOption<Long> carriedLong(RequestOption<Long> wire, String doc) {
    Bounds bounds = wire.bounds().orElseThrow();
    return carried(wire, value -> number(value, bounds), doc);
  }

  private static CrawlOption<Integer> carriedInt(RequestOption<Integer> wire, String doc) {
    Bounds bounds = wire.bounds().orElseThrow();
    return carried(wire, value -> (int) number(value, bounds), doc);
  }

  /** A whole-number option only the frontier reads: {@code min} or more. */
  private static CrawlOption<Integer> intOption(
      String name, int defaultValue, int min, String doc) {
    return intOption(name, defaultValue, min, Level.URL, doc);
  }

  private static CrawlOption<Integer> intOption(
      String name, int defaultValue, int min, Level level, String doc) {
    Bounds bounds = new Bounds(min, Integer.MAX_VALUE);
    return add(
        new CrawlOption<>(
            name, defaultValue, value -> (int) number(value, bounds), level, null, bounds, doc));
  }

  private static CrawlOption<Long> longOption(
      String name, long defaultValue, long min, String doc) {
    Bounds bounds = Bounds.atLeast(min);
    return add(
        new CrawlOption<>(
            name, defaultValue, value -> number(value, bounds), Level.URL, null, bounds, doc));
  }

  private static <T> CrawlOption<T> define(
      String name, T defaultValue, Function<Object, T> parser, String doc) {
    return define(name, defaultValue, parser, Level.URL, doc);
  }

  /** An option only the frontier's decisions read: fetch requests do not carry it. */
  private static <T> CrawlOption<T> define(
      String name, T defaultValue, Function<Object, T> parser, Level level, String doc) {
    return add(new CrawlOption<>(name, defaultValue, parser, level, null, null, doc));
  }

  private static <T> CrawlOption<T> add(CrawlOption<T> option) {
    ALL.put(option.name, option);
    return option;
  }

  /**
   * Whether fetch requests carry the option only when its value is not the default: the access
   * options and the per-feature switches, which most URLs leave as they are, cost a request no
   * bytes then.
   */
  public boolean isCarriedOnlyWhenSet(Object value) {
    boolean isRarelySet =
        this == HEADERS
            || this == COOKIES
            || this == AUTH
            || this == LOGIN
            || this == PROXY
            || this == CREDENTIALS_OVER_HTTP
            || this == RENDER
            || this == DETECT_LANGUAGE
            || this == MARKDOWN
            || this == STRUCTURED_DATA
            || this == CHUNK_MAX_CHARS
            || this == REQUIRE_USAGE
            || this == REQUIRE_USAGE_STATED;
    return isRarelySet && defaultValue.equals(value);
  }

  /** The values a whole-number option takes; empty for the others. */
  public Optional<Bounds> bounds() {
    return Optional.ofNullable(bounds);
  }

  /** Whether the option's value may be a mapping (the access options). */
  public boolean takesMapping() {
    return this == HEADERS || this == AUTH || this == LOGIN || this == PROXY;
  }

  /** Every option, in definition order. */
  public static Map<String, CrawlOption<?>> all() {
    return Collections.unmodifiableMap(ALL);
  }

  /** The option of that name. */
  public static Optional<CrawlOption<?>> named(String name) {
    return Optional.ofNullable(ALL.get(name));
  }

  public String name() {
    return name;
  }

  public T defaultValue() {
    return defaultValue;
  }

  public String doc() {
    return doc;
  }

  /** Where the option may be assigned. */
  public Level level() {
    return level;
  }

  /** Whether fetch requests carry the option (it is in the catalogue of {@link RequestOptions}). */
  public boolean isCarriedByRequests() {
    return carriedAs != null;
  }

  /**
   * The option's resolved value as a fetch request carries it.
   *
   * @throws IllegalStateException if requests do not carry the option
   */
  public String toRequestValue(Object value) {
    if (carriedAs == null) {
      throw new IllegalStateException(name + " is not carried by fetch requests");
    }
    @SuppressWarnings("unchecked")
    T typed = (T) value;
    return carriedAs.write(typed);
  }

  /**
   * The typed value of a configuration value (a string, number, boolean or list as YAML gives it).
   *
   * @throws IllegalArgumentException saying what is wrong with it
   */
  public T parse(Object value) {
    return parser.apply(value);
  }

  /** The value as the crawl configuration and the fetch request options write it. */
  public static String format(Object value) {
    if (value instanceof Optional<?> optional) {
      return optional.map(CrawlOption::format).orElse("none");
    }
    if (value instanceof Access.Header header) {
      return header.name() + ": " + header.value();
    }
    if (value instanceof Access.Auth auth) {
      return format(auth.scheme()) + " user " + auth.user() + " password " + auth.password();
    }
    if (value instanceof Access.Login login) {
      return login.method()
          + " "
          + login.url()
          + " fields "
          + login.fields()
          + login.successCookie().map(cookie -> " success-cookie " + cookie).orElse("")
          + login.successText().map(text -> " success-text '" + text + "'").orElse("");
    }
    if (value instanceof Access.Proxy proxy) {
      return proxy
          + proxy.user().map(user -> " user " + user).orElse("")
          + proxy.password().map(password -> " password " + password).orElse("");
    }
    if (value instanceof Enum<?> e) {
      return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
    if (value instanceof List<?> list) {
      return String.join(",", list.stream().map(CrawlOption::format).toList());
    }
    if (value instanceof Duration duration) {
      return duration.toSecondsPart() == 0
          ? duration.toMinutes() + "m"
          : duration.toSeconds() + "s";
    }
    return String.valueOf(value);
  }

  @Override
  public String toString() {
    return name;
  }

  private static <E extends Enum<E>> E enumValue(Class<E> type, Object value) {
    String text = String.valueOf(value).strip().toUpperCase(Locale.ROOT).replace('-', '_');
    for (E constant : type.getEnumConstants()) {
      if (constant.name().equals(text)) {
        return constant;
      }
    }
    List<String> names = new ArrayList<>();
    for (E constant : type.getEnumConstants()) {
      names.add(format(constant));
    }
    throw new IllegalArgumentException("'" + value + "' is not one of " + String.join(", ", names));
  }

  private static Duration duration(Object value) {
    return Durations.parse(String.valueOf(value), Optional.of(ChronoUnit.MINUTES));
  }

  /** A whole number within its bounds, as YAML gives it (a number, or text of one). */
  private static long number(Object value, Bounds bounds) {
    long number;
    if (value instanceof Integer || value instanceof Long) {
      number = ((Number) value).longValue();
    } else {
      try {
        number = Long.parseLong(String.valueOf(value).strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("'" + value + "' is not a whole number");
      }
    }
    return bounds.check(number);
  }

  static boolean bool(Object value) {
    if (value instanceof Boolean b) {
      return b;
    }
    String text = String.valueOf(value).strip().toLowerCase(Locale.ROOT);
    if (text.equals("true") || text.equals("false")) {
      return Boolean.parseBoolean(text);
    }
    throw new IllegalArgumentException("'" + value + "' is not true or false");
  }

  static List<String> list(Object value) {
    if (value instanceof List<?> items) {
      List<String> strings = new ArrayList<>();
      for (Object item : items) {
        if (item instanceof Map || item instanceof List) {
          throw new IllegalArgumentException("a list of words is expected, not " + value);
        }
        strings.add(String.valueOf(item).strip());
      }
      return List.copyOf(strings);
    }
    String text = String.valueOf(value).strip();
    return text.isEmpty() ? List.of() : List.of(text.split("\\s*[,|\\s]\\s*"));
  }

  private static List<String> lowerCase(List<String> values) {
    return values.stream().map(v -> v.toLowerCase(Locale.ROOT).replaceFirst("^\\.", "")).toList();
  }

  private static List<String> schemes(Object value) {
    List<String> schemes = lowerCase(list(value));
    if (schemes.isEmpty()) {
      throw new IllegalArgumentException("at least one of http, https is followed");
    }
    for (String scheme : schemes) {
      if (!scheme.equals("http") && !scheme.equals("https")) {
        throw new IllegalArgumentException(
            "'" + scheme + "' is not fetched by this crawler; the schemes are http and https");
      }
    }
    return schemes;
  }

  private static Redirects redirects(Object value) {
    String text = String.valueOf(value).strip().toLowerCase(Locale.ROOT);
    if (text.equals("record")) {
      return Redirects.RECORD;
    }
    if (text.startsWith("follow")) {
      String hops = text.substring("follow".length()).strip();
      int max = hops.isEmpty() ? 5 : (int) number(hops, new Bounds(1, Integer.MAX_VALUE));
      if (max > 10) {
        throw new IllegalArgumentException("at most 10 redirects are followed, not " + max);
      }
      return new Redirects(true, max);
    }
    throw new IllegalArgumentException("'" + value + "' is not 'record' or 'follow N'");
  }
}
