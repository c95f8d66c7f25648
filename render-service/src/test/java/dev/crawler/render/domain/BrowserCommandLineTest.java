package dev.crawler.render.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BrowserCommandLineTest {

  private final RenderSettings settings =
      RenderSettings.builder(Path.of("/usr/lib/chromium/chromium-headless-shell"))
          .userAgent("crawler/1.0")
          .extraFlags(List.of("--lang=en"))
          .build();

  @Test
  void theShimMovesThePipesAndBecomesTheBrowser() {
    List<String> command = BrowserCommandLine.command(settings.browser(), List.of("--a", "--b c"));

    assertThat(command)
        .containsExactly(
            "/bin/sh",
            "-c",
            "exec 3<&0 4>&1 0</dev/null 1>/dev/null; exec \"$0\" \"$@\"",
            "/usr/lib/chromium/chromium-headless-shell",
            "--a",
            "--b c");
  }

  @Test
  void nothingTheBrowserDoesByItselfReachesTheNetwork() {
    List<String> switches = BrowserCommandLine.switches(settings, Path.of("/tmp/profile"), true);

    assertThat(switches)
        .contains(
            "--headless",
            "--remote-debugging-pipe",
            "--user-data-dir=/tmp/profile",
            "--proxy-server=http://dead-end.invalid:9",
            "--proxy-bypass-list=<-loopback>",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
            "--disable-background-networking",
            "--disable-component-update",
            "--block-new-web-contents",
            "--user-agent=crawler/1.0",
            "--js-flags=--max-old-space-size=512")
        .doesNotContain("--no-sandbox")
        .endsWith("--lang=en");
    assertThat(switches.stream().filter(s -> s.startsWith("--disable-features=")))
        .singleElement()
        .asString()
        .contains("Translate", "OptimizationHints", "MediaRouter", "HttpsUpgrades");
  }

  @Test
  void theSandboxIsOffOnlyWhenAsked() {
    assertThat(BrowserCommandLine.switches(settings, Path.of("/tmp/p"), false))
        .contains("--no-sandbox");
  }
}
