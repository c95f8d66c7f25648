package dev.crawler.render;

import dev.crawler.fetcher.FetcherConfig;
import dev.crawler.render.domain.BrowserLocation;
import dev.crawler.render.domain.RenderSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The render service's settings: the fetcher's (its HTTP client, address guard, robots.txt,
 * politeness and Kafka settings, which the render tier applies the same way to the requests its
 * browser makes) and its own {@code render.*} ones.
 */
public final class RenderConfig extends FetcherConfig {

  public static final String GROUP_ID_CONFIG = "render.group.id";
  private static final String GROUP_ID_DOC =
      "The consumer group of the render service's instances; instances in one group share the origins.";

  public static final String BROWSER_PATH_CONFIG = "render.browser.path";
  private static final String BROWSER_PATH_DOC =
      "The headless browser to run (Chromium's headless shell, or Chromium); empty: $CRAWLER_BROWSER, then"
          + " /usr/bin/chromium-headless-shell, then /usr/bin/chromium. Without one the service does not start.";

  public static final String MAX_WAIT_MS_CONFIG = "render.max.wait.ms";
  private static final String MAX_WAIT_MS_DOC =
      "The most a page's render takes, from navigation to the read of its DOM, in milliseconds; a page whose"
          + " scripts do not yield by then ends RENDER_TIMEOUT, one still busy is read as it stands.";

  public static final String QUIET_WINDOW_MS_CONFIG = "render.quiet.window.ms";
  private static final String QUIET_WINDOW_MS_DOC =
      "How long the page's network and DOM must both be quiet for it to be settled, in milliseconds.";

  public static final String MAX_REQUESTS_PER_PAGE_CONFIG = "render.max.requests.per.page";
  private static final String MAX_REQUESTS_PER_PAGE_DOC =
      "Requests a page may make, its main document included; the ones beyond fail.";

  public static final String MAX_DOM_BYTES_CONFIG = "render.max.dom.bytes";
  private static final String MAX_DOM_BYTES_DOC =
      "The most of a rendered page's DOM read, in UTF-8 bytes; a larger one is cut and marked.";

  public static final String PAGES_AT_ONCE_CONFIG = "render.pages.at.once";
  private static final String PAGES_AT_ONCE_DOC = "Pages rendered at once per instance.";

  public static final String PAGES_PER_BROWSER_CONFIG = "render.pages.per.browser";
  private static final String PAGES_PER_BROWSER_DOC =
      "Pages a browser renders before it is replaced by a fresh one.";

  public static final String BROWSER_MAX_AGE_MS_CONFIG = "render.browser.max.age.ms";
  private static final String BROWSER_MAX_AGE_MS_DOC =
      "How long a browser serves before it is replaced, in milliseconds.";

  public static final String BLOCKED_RESOURCE_TYPES_CONFIG = "render.blocked.resource.types";
  private static final String BLOCKED_RESOURCE_TYPES_DOC =
      "Resource types a page may not load (the DevTools protocol's names: image, font, media, stylesheet, …):"
          + " what adds no text or links is not downloaded.";

  public static final String OTHER_ORIGINS_CONFIG = "render.other.origins";
  private static final String OTHER_ORIGINS_DOC =
      "Whether a page may load resources of other origins (a CDN's scripts); off, only its own origin's, as"
          + " its robots.txt allows.";

  public static final String PROFILE_DIRECTORY_CONFIG = "render.profile.directory";
  private static final String PROFILE_DIRECTORY_DOC =
      "Where the browsers' throw-away profiles go; what a stopped service left there is removed at start.";

  public static final String SANDBOX_CONFIG = "render.sandbox";
  private static final String SANDBOX_DOC =
      "The browser's sandbox: auto (on unless running as root), on, off (a container without user"
          + " namespaces).";

  public static final ConfigDef DEFINITION =
      new ConfigDef(FetcherConfig.DEFINITION)
          .define(
              GROUP_ID_CONFIG,
              Type.STRING,
              "crawler-render",
              new ConfigDef.NonEmptyString(),
              Importance.HIGH,
              GROUP_ID_DOC)
          .define(BROWSER_PATH_CONFIG, Type.STRING, "", Importance.HIGH, BROWSER_PATH_DOC)
          .define(
              MAX_WAIT_MS_CONFIG,
              Type.LONG,
              10_000L,
              Range.between(100, 300_000),
              Importance.MEDIUM,
              MAX_WAIT_MS_DOC)
          .define(
              QUIET_WINDOW_MS_CONFIG,
              Type.LONG,
              500L,
              Range.between(50, 60_000),
              Importance.MEDIUM,
              QUIET_WINDOW_MS_DOC)
          .define(
              MAX_REQUESTS_PER_PAGE_CONFIG,
              Type.INT,
              200,
              Range.between(1, 10_000),
              Importance.MEDIUM,
              MAX_REQUESTS_PER_PAGE_DOC)
          .define(
              MAX_DOM_BYTES_CONFIG,
              Type.INT,
              10 * 1024 * 1024,
              Range.between(1024, Integer.MAX_VALUE),
              Importance.MEDIUM,
              MAX_DOM_BYTES_DOC)
          .define(
              PAGES_AT_ONCE_CONFIG,
              Type.INT,
              2,
              Range.between(1, 64),
              Importance.MEDIUM,
              PAGES_AT_ONCE_DOC)
          .define(
              PAGES_PER_BROWSER_CONFIG,
              Type.INT,
              500,
              Range.atLeast(1),
              Importance.LOW,
              PAGES_PER_BROWSER_DOC)
          .define(
              BROWSER_MAX_AGE_MS_CONFIG,
              Type.LONG,
              1_800_000L,
              Range.atLeast(1_000),
              Importance.LOW,
              BROWSER_MAX_AGE_MS_DOC)
          .define(
              BLOCKED_RESOURCE_TYPES_CONFIG,
              Type.LIST,
              List.of("image", "font", "media"),
              Importance.LOW,
              BLOCKED_RESOURCE_TYPES_DOC)
          .define(OTHER_ORIGINS_CONFIG, Type.BOOLEAN, false, Importance.MEDIUM, OTHER_ORIGINS_DOC)
          .define(
              PROFILE_DIRECTORY_CONFIG,
              Type.STRING,
              Path.of(System.getProperty("java.io.tmpdir"), "crawler-render").toString(),
              Importance.LOW,
              PROFILE_DIRECTORY_DOC)
          .define(
              SANDBOX_CONFIG,
              Type.STRING,
              "auto",
              ConfigDef.CaseInsensitiveValidString.in("auto", "on", "off"),
              Importance.LOW,
              SANDBOX_DOC);

  public RenderConfig(Map<String, String> settings) {
    super(DEFINITION, settings);
  }

  /**
   * The browser to run.
   *
   * @throws ConfigException naming the package to install when there is none
   */
  public Path browser() {
    String configured = getString(BROWSER_PATH_CONFIG).strip();
    return BrowserLocation.find(configured.isEmpty() ? Optional.empty() : Optional.of(configured))
        .orElseThrow(
            () ->
                new ConfigException(
                    configured.isEmpty()
                        ? "no headless browser found: " + BrowserLocation.NOT_FOUND
                        : BROWSER_PATH_CONFIG
                            + " "
                            + configured
                            + " is not an executable browser: "
                            + BrowserLocation.NOT_FOUND));
  }

  /** The renderer's settings. */
  public RenderSettings renderSettings() {
    return RenderSettings.builder(browser())
        .profileRoot(Path.of(getString(PROFILE_DIRECTORY_CONFIG)))
        .userAgent(userAgent())
        .maxWait(Duration.ofMillis(getLong(MAX_WAIT_MS_CONFIG)))
        .quietWindow(Duration.ofMillis(getLong(QUIET_WINDOW_MS_CONFIG)))
        .maxRequestsPerPage(getInt(MAX_REQUESTS_PER_PAGE_CONFIG))
        .maxDomBytes(getInt(MAX_DOM_BYTES_CONFIG))
        .maxPagesAtOnce(getInt(PAGES_AT_ONCE_CONFIG))
        .pagesPerBrowser(getInt(PAGES_PER_BROWSER_CONFIG))
        .browserMaxAge(Duration.ofMillis(getLong(BROWSER_MAX_AGE_MS_CONFIG)))
        .blockedResourceTypes(Set.copyOf(getList(BLOCKED_RESOURCE_TYPES_CONFIG)))
        .sandbox(RenderSettings.Sandbox.valueOf(getString(SANDBOX_CONFIG).toUpperCase(Locale.ROOT)))
        .build();
  }
}
