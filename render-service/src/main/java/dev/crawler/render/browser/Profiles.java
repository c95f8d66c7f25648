package dev.crawler.render.browser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The browsers' profile directories: one fresh directory per browser, {@code browser-<pid>-<n>}
 * under a root, where {@code <pid>} is the Java process that made it. A directory whose process is
 * gone was left by a crash or a kill; {@link #removeStale} deletes those (never a live process's,
 * so renderers in several processes may share a root).
 */
final class Profiles {

  private static final Logger log = LoggerFactory.getLogger(Profiles.class);

  private static final Pattern NAME = Pattern.compile("browser-(\\d+)-\\d+");

  private Profiles() {}

  /** Makes the {@code sequence}-th profile directory of this process. */
  static Path create(Path root, long sequence) throws IOException {
    Files.createDirectories(root);
    Path profile = root.resolve("browser-" + ProcessHandle.current().pid() + "-" + sequence);
    delete(profile); // a directory of an earlier process that had the same pid
    return Files.createDirectory(profile);
  }

  /** The pid of the process that made a profile directory of this name; empty for another name. */
  static OptionalLong ownerOf(String directoryName) {
    Matcher matcher = NAME.matcher(directoryName);
    return matcher.matches()
        ? OptionalLong.of(Long.parseLong(matcher.group(1)))
        : OptionalLong.empty();
  }

  /** Deletes the profile directories under {@code root} whose process is gone; returns how many. */
  static int removeStale(Path root) {
    if (!Files.isDirectory(root)) {
      return 0;
    }
    List<Path> stale;
    try (Stream<Path> entries = Files.list(root)) {
      stale =
          entries
              .filter(
                  dir -> {
                    OptionalLong owner = ownerOf(dir.getFileName().toString());
                    return owner.isPresent()
                        && ProcessHandle.of(owner.getAsLong())
                            .filter(ProcessHandle::isAlive)
                            .isEmpty();
                  })
              .toList();
    } catch (IOException e) {
      log.warn("listing the browser profiles in {}: {}", root, e.getMessage());
      return 0;
    }
    stale.forEach(Profiles::delete);
    if (!stale.isEmpty()) {
      log.info("deleted {} browser profiles left by processes that are gone", stale.size());
    }
    return stale.size();
  }

  /** Deletes a directory and all it holds; a failure is logged. */
  static void delete(Path directory) {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> tree = Files.walk(directory)) {
      tree.sorted(Comparator.reverseOrder())
          .forEach(
              path -> {
                try {
                  Files.deleteIfExists(path);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (IOException | UncheckedIOException e) {
      log.warn(
          "deleting the browser profile {}: {}",
          directory,
          Optional.ofNullable(e.getMessage()).orElse(e.toString()));
    }
  }
}
