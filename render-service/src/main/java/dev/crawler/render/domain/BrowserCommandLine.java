package dev.crawler.render.domain;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The browser's command line. The browser is driven over {@code --remote-debugging-pipe}: the
 * DevTools protocol as NUL-terminated JSON messages, read on its file descriptor 3 and written on
 * 4. A small {@code sh} moves the pipes a Java process gets (stdin, stdout) to 3 and 4, then {@code
 * exec}s the browser, so the process started is the browser itself. When the process that launched
 * it ends, even killed, the pipe closes and the browser exits with all its children.
 *
 * <p>The switches cut the browser off the network, twice: every host it would connect to, name or
 * address literal, the proxy's included, fails to resolve ({@code MAP * ~NOTFOUND}); and every
 * connection it would open goes to a dead-end proxy (loopback included, which Chromium otherwise
 * reaches directly). WebRTC sends no UDP outside the proxy. Requests of a page never reach the
 * network anyway (the renderer answers them through its loader); what the switches stop is what
 * cannot be intercepted (WebSockets, pre-connections) and the browser's own background traffic
 * (updates, field trials, safe browsing, translation, media routing).
 */
public final class BrowserCommandLine {

  /** Moves stdin to fd 3 and stdout to fd 4, then becomes the browser ({@code $0 "$@"}). */
  static final String PIPE_SHIM = "exec 3<&0 4>&1 0</dev/null 1>/dev/null; exec \"$0\" \"$@\"";

  /** Features off: each would make requests of its own or change what a page sees. */
  static final List<String> DISABLED_FEATURES =
      List.of(
          "Translate",
          "OptimizationHints",
          "MediaRouter",
          "DialMediaRouteProvider",
          "AcceptCHFrame",
          "CertificateTransparencyComponentUpdater",
          "AutofillServerCommunication",
          "InterestFeedContentSuggestions",
          "PrivacySandboxSettings4",
          // an http page must be loaded as http, not retried as https by the browser
          "HttpsUpgrades",
          "HttpsFirstBalancedModeAutoEnable",
          "BackForwardCache");

  private BrowserCommandLine() {}

  /**
   * The command that starts the browser, for {@link ProcessBuilder}: the pipe shim, the executable,
   * the switches.
   */
  public static List<String> command(Path browser, List<String> switches) {
    List<String> command = new ArrayList<>();
    command.add("/bin/sh");
    command.add("-c");
    command.add(PIPE_SHIM);
    command.add(browser.toString());
    command.addAll(switches);
    return command;
  }

  /**
   * The switches for one browser.
   *
   * @param profile its fresh profile directory
   * @param sandboxed whether its renderers run in the sandbox
   */
  public static List<String> switches(RenderSettings settings, Path profile, boolean sandboxed) {
    List<String> s = new ArrayList<>();
    s.add("--headless");
    s.add("--remote-debugging-pipe");
    s.add("--user-data-dir=" + profile);
    if (!sandboxed) {
      s.add("--no-sandbox");
    }
    // no background traffic, no first-run work, nothing that phones home
    s.add("--no-first-run");
    s.add("--no-default-browser-check");
    s.add("--no-service-autorun");
    s.add("--disable-background-networking");
    s.add("--disable-component-update");
    s.add("--disable-sync");
    s.add("--disable-default-apps");
    s.add("--disable-extensions");
    s.add("--disable-component-extensions-with-background-pages");
    s.add("--disable-client-side-phishing-detection");
    s.add("--disable-domain-reliability");
    s.add("--disable-field-trial-config");
    s.add("--disable-breakpad");
    s.add("--metrics-recording-only");
    s.add("--password-store=basic");
    s.add("--use-mock-keychain");
    s.add("--disable-features=" + String.join(",", DISABLED_FEATURES));
    // the network: nothing the browser does by itself reaches it
    s.add("--proxy-server=" + settings.deadEndProxy());
    s.add("--proxy-bypass-list=<-loopback>");
    s.add("--host-resolver-rules=MAP * ~NOTFOUND");
    s.add("--force-webrtc-ip-handling-policy=disable_non_proxied_udp");
    // a page's timers run at full speed, as a visible tab's: settling depends on them
    s.add("--disable-background-timer-throttling");
    s.add("--disable-renderer-backgrounding");
    s.add("--disable-backgrounding-occluded-windows");
    s.add("--disable-hang-monitor");
    s.add("--disable-ipc-flooding-protection");
    // pop-ups and prompts
    s.add("--block-new-web-contents");
    s.add("--deny-permission-prompts");
    s.add("--mute-audio");
    // resources: no GPU, /tmp rather than a small /dev/shm, a bounded script heap
    s.add("--disable-gpu");
    s.add("--disable-dev-shm-usage");
    s.add("--js-flags=--max-old-space-size=" + settings.maxScriptHeapMegabytes());
    s.add("--window-size=1280,800");
    s.add("--user-agent=" + settings.userAgent());
    s.addAll(settings.extraFlags());
    return List.copyOf(s);
  }
}
