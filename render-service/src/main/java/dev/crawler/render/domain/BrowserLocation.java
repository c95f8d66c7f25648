package dev.crawler.render.domain;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Where the browser is: the setting when given, else {@value #ENVIRONMENT_VARIABLE}, else the
 * operating system's packages ({@code /usr/bin/chromium-headless-shell}, then {@code
 * /usr/bin/chromium}; Debian: {@code apt-get install chromium-headless-shell}).
 *
 * <p>Debian's {@code /usr/bin} launchers are shell scripts: the headless shell's runs the browser
 * without {@code exec}, so the process started would be a shell with the browser beneath it, and
 * chromium's sources {@code /etc/chromium.d}, which loads extensions and exports API keys. The
 * binary each launches, under {@code /usr/lib/chromium}, is used instead when it is there.
 */
public final class BrowserLocation {

  /** The environment variable naming the browser's executable. */
  public static final String ENVIRONMENT_VARIABLE = "CRAWLER_BROWSER";

  /** The browsers the operating system's packages install, in the order they are preferred. */
  public static final List<Path> PACKAGED =
      List.of(Path.of("/usr/bin/chromium-headless-shell"), Path.of("/usr/bin/chromium"));

  /** Debian's launcher scripts and the binaries they run. */
  private static final Map<Path, Path> LAUNCHED_BY =
      Map.of(
          Path.of("/usr/bin/chromium-headless-shell"),
          Path.of("/usr/lib/chromium/chromium-headless-shell"),
          Path.of("/usr/bin/chromium"),
          Path.of("/usr/lib/chromium/chromium"));

  /** The one line a test or a service prints when no browser is found. */
  public static final String NOT_FOUND =
      "install chromium-headless-shell (apt-get install chromium-headless-shell) or set "
          + ENVIRONMENT_VARIABLE;

  private BrowserLocation() {}

  /** The browser found on this machine, through its environment. */
  public static Optional<Path> find(Optional<String> setting) {
    return find(setting, System.getenv(), path -> path.toFile().canExecute());
  }

  /**
   * The browser to launch: the first candidate that is executable, a Debian launcher replaced by
   * its binary.
   *
   * @param setting the configured path, if any; a configured path that is not executable finds
   *     nothing (a setting is never silently replaced by another browser)
   * @param environment the process's environment
   * @param isExecutable whether a path is an executable file
   */
  public static Optional<Path> find(
      Optional<String> setting, Map<String, String> environment, Predicate<Path> isExecutable) {
    List<Path> candidates = new ArrayList<>();
    Optional<String> named =
        setting
            .filter(s -> !s.isBlank())
            .or(
                () ->
                    Optional.ofNullable(environment.get(ENVIRONMENT_VARIABLE))
                        .filter(s -> !s.isBlank()));
    if (named.isPresent()) {
      candidates.add(Path.of(named.get().strip()));
    } else {
      candidates.addAll(PACKAGED);
    }
    for (Path candidate : candidates) {
      if (isExecutable.test(candidate)) {
        Path binary = LAUNCHED_BY.get(candidate);
        return Optional.of(binary != null && isExecutable.test(binary) ? binary : candidate);
      }
    }
    return Optional.empty();
  }
}
