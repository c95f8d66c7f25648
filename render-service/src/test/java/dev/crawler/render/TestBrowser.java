package dev.crawler.render;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.crawler.render.domain.BrowserLocation;
import dev.crawler.render.domain.RenderSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The browser the render tests drive: {@code -Dcrawler.browser}, {@code CRAWLER_BROWSER}, or the
 * operating system's. Without one, the tests are skipped, and one line says so; in CI ({@code
 * CI=true}, where {@code .ci/run} installs the browser) they fail instead, so a render test never
 * passes there by being skipped.
 */
public final class TestBrowser {

  private static final AtomicBoolean TOLD = new AtomicBoolean();

  private TestBrowser() {}

  /** The browser's path; skips the calling test when there is none. */
  public static Path require() {
    Optional<Path> browser =
        BrowserLocation.find(Optional.ofNullable(System.getProperty("crawler.browser")));
    String message = "render tests skipped: " + BrowserLocation.NOT_FOUND;
    if (browser.isEmpty() && "true".equalsIgnoreCase(System.getenv("CI"))) {
      throw new AssertionError(
          "render tests must run in CI, and no browser is there: " + BrowserLocation.NOT_FOUND);
    }
    if (browser.isEmpty() && TOLD.compareAndSet(false, true)) {
      System.err.println(message);
    }
    assumeTrue(browser.isPresent(), message);
    return browser.get();
  }

  /** Settings for tests: a profile root of the test's, a short time bound. */
  public static RenderSettings.Builder settings(Path profileRoot) {
    return RenderSettings.builder(require())
        .profileRoot(profileRoot)
        .userAgent("render-test/1.0 (+https://crawler.test/bot)")
        .maxWait(Duration.ofSeconds(8));
  }
}
