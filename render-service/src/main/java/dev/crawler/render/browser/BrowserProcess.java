package dev.crawler.render.browser;

import dev.crawler.render.domain.BrowserCommandLine;
import dev.crawler.render.domain.RenderSettings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A browser's operating-system process: started through the pipe shim ({@link BrowserCommandLine}),
 * so this process is the browser and its fd 3 and 4 are {@link #toBrowser()} and {@link
 * #fromBrowser()}; its profile, a fresh directory ({@link Profiles}); its standard error, of which
 * the last lines are kept to say why it failed. The browser gets an environment of its own, not the
 * crawler's: no secret the crawler reads from its environment reaches it.
 */
final class BrowserProcess {

  private static final Logger log = LoggerFactory.getLogger(BrowserProcess.class);

  /** Lines of the browser's standard error kept, the last ones. */
  private static final int STDERR_LINES_KEPT = 20;

  private static final AtomicLong SEQUENCE = new AtomicLong();

  private final Process process;
  private final Path profile;
  private final Deque<String> stderrTail = new ArrayDeque<>();

  private BrowserProcess(Process process, Path profile) {
    this.process = process;
    this.profile = profile;
  }

  /** Starts a browser with a fresh profile under the settings' profile root. */
  static BrowserProcess start(RenderSettings settings) throws IOException {
    Path profile = Profiles.create(settings.profileRoot(), SEQUENCE.incrementAndGet());
    boolean sandboxed =
        switch (settings.sandbox()) {
          case ON -> true;
          case OFF -> false;
          case AUTO -> !isRoot();
        };
    List<String> command =
        BrowserCommandLine.command(
            settings.browser(), BrowserCommandLine.switches(settings, profile, sandboxed));
    ProcessBuilder builder = new ProcessBuilder(command);
    Map<String, String> environment = builder.environment();
    environment.clear();
    environment.put("PATH", "/usr/local/bin:/usr/bin:/bin");
    environment.put("HOME", profile.toString());
    environment.put("XDG_CONFIG_HOME", profile.resolve("config").toString());
    environment.put("XDG_CACHE_HOME", profile.resolve("cache").toString());
    environment.put("TMPDIR", profile.toString());
    environment.put("LANG", "C.UTF-8");
    builder.redirectError(ProcessBuilder.Redirect.PIPE);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      Profiles.delete(profile);
      throw e;
    }
    BrowserProcess browser = new BrowserProcess(process, profile);
    browser.keepStderr();
    return browser;
  }

  /** Whether this process runs as root, as {@code /proc/self/status} says. */
  static boolean isRoot() {
    try {
      return isRoot(Files.readString(Path.of("/proc/self/status"), StandardCharsets.UTF_8));
    } catch (IOException e) {
      return false;
    }
  }

  /** Whether a {@code /proc/PID/status} text has a real user id of 0. */
  static boolean isRoot(String status) {
    for (String line : status.split("\n")) {
      if (line.startsWith("Uid:")) {
        String[] ids = line.substring(4).strip().split("\\s+");
        return ids.length > 0 && ids[0].equals("0");
      }
    }
    return false;
  }

  long pid() {
    return process.pid();
  }

  Path profile() {
    return profile;
  }

  /** What the browser writes: its fd 4. */
  InputStream fromBrowser() {
    return process.getInputStream();
  }

  /** What the browser reads: its fd 3. */
  OutputStream toBrowser() {
    return process.getOutputStream();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Completes when the browser's process has exited. */
  CompletableFuture<Process> onExit() {
    return process.onExit();
  }

  /** The last lines of the browser's standard error, for a failure's detail. */
  String stderrTail() {
    synchronized (stderrTail) {
      return String.join("\n", stderrTail);
    }
  }

  /**
   * Ends the browser: once its pipe is closed (the caller's part) it exits by itself; what is still
   * running after {@code grace}, the browser or any process it started, is killed. Its profile is
   * then deleted. Blocks for up to {@code grace}: call it off the protocol's threads.
   */
  void stop(Duration grace) {
    List<ProcessHandle> family =
        process.descendants().toList(); // before the browser exits and they are re-parented
    try {
      process.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      log.info("browser {} did not exit within {} ms: killed", pid(), grace.toMillis());
    }
    process.destroyForcibly();
    for (ProcessHandle member : family) {
      if (member.isAlive()) {
        member.destroyForcibly();
      }
    }
    try {
      process.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      log.warn("browser {} still runs after it was killed", pid());
    }
    Profiles.delete(profile);
  }

  private void keepStderr() {
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                  synchronized (stderrTail) {
                    if (stderrTail.size() == STDERR_LINES_KEPT) {
                      stderrTail.removeFirst();
                    }
                    stderrTail.addLast(line.length() > 500 ? line.substring(0, 500) : line);
                  }
                }
              } catch (IOException e) {
                log.debug("browser {} standard error: {}", pid(), e.getMessage());
              }
            },
            "browser-stderr-" + pid());
    reader.setDaemon(true);
    reader.start();
  }
}
