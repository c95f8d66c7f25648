package dev.crawler.render.browser;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.render.domain.RenderSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;

/**
 * A JVM that launches a browser, prints {@code browser <pid> <profile>} and waits to be killed: for
 * {@link BrowserKillIT}.
 */
final class BrowserHolder {

  private BrowserHolder() {}

  /** Arguments: the browser's path, the profile root. */
  public static void main(String[] args) throws IOException {
    RenderSettings settings =
        RenderSettings.builder(Path.of(args[0])).profileRoot(Path.of(args[1])).build();
    Browser browser = Browser.launch(settings, new ObjectMapper(), Instant.now());
    System.out.println("browser " + browser.pid() + " " + settings.profileRoot());
    System.out.flush();
    while (System.in.read() != -1) {
      // held until killed
    }
  }
}
