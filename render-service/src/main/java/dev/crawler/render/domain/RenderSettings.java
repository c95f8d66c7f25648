package dev.crawler.render.domain;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How the renderer runs its browser and bounds each page. Every input from the web is bounded: time
 * ({@link #maxWait}), requests ({@link #maxRequestsPerPage}), the DOM read ({@link #maxDomBytes}),
 * script memory ({@link #maxScriptHeapMegabytes}); every body a request loads is bounded by the
 * loader.
 *
 * @param browser the browser's executable ({@link BrowserLocation})
 * @param profileRoot where each browser's fresh profile directory is made; directories left by a
 *     process that is gone are deleted when a renderer starts
 * @param userAgent the User-Agent the browser presents to scripts ({@code navigator.userAgent});
 *     the loader sends its own on the wire
 * @param quietWindow how long network and DOM must both be quiet for a page to be done
 * @param maxWait the most a render takes, from its start to its DOM read
 * @param pollInterval how often a rendering page is looked at
 * @param maxRequestsPerPage requests a page may make (the main document's included); the ones
 *     beyond fail as blocked
 * @param blockedResourceTypes resource types refused without asking the loader (DevTools protocol
 *     names, case-insensitive): {@code Image}, {@code Font}, {@code Media} by default
 * @param maxDomBytes the most of the DOM read, in UTF-8 bytes: a larger one is cut and marked
 * @param maxPagesAtOnce pages rendered at once; more wait their turn
 * @param reuseTabs whether a tab is kept for its origin's next page (blanked, the origin's storage
 *     cleared): its renderer process stays warm, which saves most of a page's browser CPU; off,
 *     every page gets a browser context and renderer of its own. Tabs never pass from one origin to
 *     another either way
 * @param pagesPerBrowser pages a browser renders before it is replaced by a fresh one
 * @param browserMaxAge how long a browser serves before it is replaced
 * @param startTimeout how long a browser may take to start and answer
 * @param commandTimeout how long the browser may take to answer a command outside a page's time
 * @param sandbox whether the browser runs its renderers in its sandbox
 * @param deadEndProxy the proxy every connection the browser would open itself is sent to ({@code
 *     [scheme://]host:port}); by default a host that never resolves ({@code .invalid}, RFC 6761),
 *     so no socket is opened even to it. A second wall behind the host resolver rule, which already
 *     fails every name and address the browser would connect to, proxies included
 * @param maxScriptHeapMegabytes the JavaScript heap of a page's renderer, at most; a page that
 *     needs more crashes its tab, not the host
 * @param extraFlags more command-line switches, after the renderer's own
 */
public record RenderSettings(
    Path browser,
    Path profileRoot,
    String userAgent,
    Duration quietWindow,
    Duration maxWait,
    Duration pollInterval,
    int maxRequestsPerPage,
    Set<String> blockedResourceTypes,
    int maxDomBytes,
    int maxPagesAtOnce,
    boolean reuseTabs,
    int pagesPerBrowser,
    Duration browserMaxAge,
    Duration startTimeout,
    Duration commandTimeout,
    Sandbox sandbox,
    String deadEndProxy,
    int maxScriptHeapMegabytes,
    List<String> extraFlags) {

  /** Whether the browser's sandbox is on. */
  public enum Sandbox {
    /** On, unless the process runs as root (Chromium refuses to start sandboxed as root). */
    AUTO,
    ON,
    OFF
  }

  /** The resource types refused by default: what adds no text or links to a page. */
  public static final Set<String> DEFAULT_BLOCKED_TYPES = Set.of("image", "font", "media");

  public RenderSettings {
    Objects.requireNonNull(browser, "browser");
    blockedResourceTypes =
        blockedResourceTypes.stream()
            .map(type -> type.toLowerCase(Locale.ROOT))
            .collect(Collectors.toUnmodifiableSet());
    extraFlags = List.copyOf(extraFlags);
    requirePositive(quietWindow, "quietWindow");
    requirePositive(maxWait, "maxWait");
    requirePositive(pollInterval, "pollInterval");
    requirePositive(startTimeout, "startTimeout");
    requirePositive(commandTimeout, "commandTimeout");
    requirePositive(browserMaxAge, "browserMaxAge");
    if (maxRequestsPerPage < 1
        || maxDomBytes < 1024
        || maxPagesAtOnce < 1
        || pagesPerBrowser < 1
        || maxScriptHeapMegabytes < 16) {
      throw new IllegalArgumentException(
          "a bound is too small: maxRequestsPerPage, maxPagesAtOnce, pagesPerBrowser >= 1,"
              + " maxDomBytes >= 1024, maxScriptHeapMegabytes >= 16");
    }
  }

  private static void requirePositive(Duration duration, String name) {
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException(name + " must be positive: " + duration);
    }
  }

  /** The settings with their defaults, for a browser at {@code browser}. */
  public static Builder builder(Path browser) {
    return new Builder(browser);
  }

  /** These settings as a builder, to change some. */
  public Builder toBuilder() {
    Builder b = new Builder(browser);
    b.profileRoot = profileRoot;
    b.userAgent = userAgent;
    b.quietWindow = quietWindow;
    b.maxWait = maxWait;
    b.pollInterval = pollInterval;
    b.maxRequestsPerPage = maxRequestsPerPage;
    b.blockedResourceTypes = blockedResourceTypes;
    b.maxDomBytes = maxDomBytes;
    b.maxPagesAtOnce = maxPagesAtOnce;
    b.reuseTabs = reuseTabs;
    b.pagesPerBrowser = pagesPerBrowser;
    b.browserMaxAge = browserMaxAge;
    b.startTimeout = startTimeout;
    b.commandTimeout = commandTimeout;
    b.sandbox = sandbox;
    b.deadEndProxy = deadEndProxy;
    b.maxScriptHeapMegabytes = maxScriptHeapMegabytes;
    b.extraFlags = extraFlags;
    return b;
  }

  /** Whether a request of this resource type is refused without asking the loader. */
  public boolean isBlockedType(String resourceType) {
    return blockedResourceTypes.contains(resourceType.toLowerCase(Locale.ROOT));
  }

  /** The settling rule these settings make. */
  public Settling settling() {
    return new Settling(quietWindow, maxWait);
  }

  /** Builds {@link RenderSettings}; each field starts at its default. */
  public static final class Builder {
    private final Path browser;
    private Path profileRoot = Path.of(System.getProperty("java.io.tmpdir"), "crawler-render");
    private String userAgent = "kafka-crawler/0.1";
    private Duration quietWindow = Duration.ofMillis(500);
    private Duration maxWait = Duration.ofSeconds(10);
    private Duration pollInterval = Duration.ofMillis(100);
    private int maxRequestsPerPage = 200;
    private Set<String> blockedResourceTypes = DEFAULT_BLOCKED_TYPES;
    private int maxDomBytes = 10 * 1024 * 1024;
    private int maxPagesAtOnce = 2;
    private boolean reuseTabs = true;
    private int pagesPerBrowser = 500;
    private Duration browserMaxAge = Duration.ofMinutes(30);
    private Duration startTimeout = Duration.ofSeconds(20);
    private Duration commandTimeout = Duration.ofSeconds(10);
    private Sandbox sandbox = Sandbox.AUTO;
    private String deadEndProxy = "http://dead-end.invalid:9";
    private int maxScriptHeapMegabytes = 512;
    private List<String> extraFlags = List.of();

    private Builder(Path browser) {
      this.browser = browser;
    }

    public Builder profileRoot(Path value) {
      profileRoot = value;
      return this;
    }

    public Builder userAgent(String value) {
      userAgent = value;
      return this;
    }

    public Builder quietWindow(Duration value) {
      quietWindow = value;
      return this;
    }

    public Builder maxWait(Duration value) {
      maxWait = value;
      return this;
    }

    public Builder pollInterval(Duration value) {
      pollInterval = value;
      return this;
    }

    public Builder maxRequestsPerPage(int value) {
      maxRequestsPerPage = value;
      return this;
    }

    public Builder blockedResourceTypes(Set<String> value) {
      blockedResourceTypes = value;
      return this;
    }

    public Builder maxDomBytes(int value) {
      maxDomBytes = value;
      return this;
    }

    public Builder maxPagesAtOnce(int value) {
      maxPagesAtOnce = value;
      return this;
    }

    public Builder reuseTabs(boolean value) {
      reuseTabs = value;
      return this;
    }

    public Builder pagesPerBrowser(int value) {
      pagesPerBrowser = value;
      return this;
    }

    public Builder browserMaxAge(Duration value) {
      browserMaxAge = value;
      return this;
    }

    public Builder startTimeout(Duration value) {
      startTimeout = value;
      return this;
    }

    public Builder commandTimeout(Duration value) {
      commandTimeout = value;
      return this;
    }

    public Builder sandbox(Sandbox value) {
      sandbox = value;
      return this;
    }

    public Builder deadEndProxy(String value) {
      deadEndProxy = value;
      return this;
    }

    public Builder maxScriptHeapMegabytes(int value) {
      maxScriptHeapMegabytes = value;
      return this;
    }

    public Builder extraFlags(List<String> value) {
      extraFlags = value;
      return this;
    }

    public RenderSettings build() {
      return new RenderSettings(
          browser,
          profileRoot,
          userAgent,
          quietWindow,
          maxWait,
          pollInterval,
          maxRequestsPerPage,
          blockedResourceTypes,
          maxDomBytes,
          maxPagesAtOnce,
          reuseTabs,
          pagesPerBrowser,
          browserMaxAge,
          startTimeout,
          commandTimeout,
          sandbox,
          deadEndProxy,
          maxScriptHeapMegabytes,
          extraFlags);
    }
  }
}
