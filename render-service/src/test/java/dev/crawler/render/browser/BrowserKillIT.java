package dev.crawler.render.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.crawler.render.TestBrowser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A browser ends with the JVM that launched it, even one killed with SIGKILL: its DevTools pipe
 * closes, and the browser exits with every process it started.
 */
class BrowserKillIT {

  @TempDir Path profiles;

  @Test
  void aBrowserEndsWithTheJvmThatLaunchedItKilled() throws Exception {
    Path browser = TestBrowser.require();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process jvm =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                BrowserHolder.class.getName(),
                browser.toString(),
                profiles.toString())
            .redirectErrorStream(true)
            .start();
    long browserPid = browserPidFrom(jvm);
    ProcessHandle root = ProcessHandle.of(browserPid).orElseThrow();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> root.descendants().count() >= 2); // zygote, GPU or network service
    List<ProcessHandle> family = Stream.concat(Stream.of(root), root.descendants()).toList();
    assertThat(profileUsers()).isNotEmpty();

    jvm.destroyForcibly(); // SIGKILL: no shutdown hook, no close

    await().atMost(Duration.ofSeconds(10)).until(() -> !jvm.isAlive());
    await()
        .atMost(Duration.ofSeconds(15))
        .until(() -> family.stream().noneMatch(ProcessHandle::isAlive) && profileUsers().isEmpty());
    // the profile it left is deleted by the next renderer that uses the root
    assertThat(directories()).hasSize(1);
    new Renderer(TestBrowser.settings(profiles).build(), InstantSource.system()).close();
    assertThat(directories()).isEmpty();
  }

  private static long browserPidFrom(Process jvm) throws IOException {
    BufferedReader lines =
        new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = lines.readLine()) != null) {
      if (line.startsWith("browser ")) {
        return Long.parseLong(line.split(" ")[1]);
      }
    }
    throw new IllegalStateException("the holder JVM ended without a browser");
  }

  /** The processes whose command line names the profile root. */
  private List<Long> profileUsers() throws IOException {
    String root = profiles.toString();
    try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
      return processes
          .filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
          .filter(
              p -> {
                try {
                  String cmdline =
                      new String(Files.readAllBytes(p.resolve("cmdline")), StandardCharsets.UTF_8);
                  return cmdline.contains(root);
                } catch (IOException e) {
                  return false; // gone meanwhile
                }
              })
          .map(p -> Long.parseLong(p.getFileName().toString()))
          .toList();
    }
  }

  private List<Path> directories() throws IOException {
    try (Stream<Path> entries = Files.list(profiles)) {
      return entries.toList();
    }
  }
}
