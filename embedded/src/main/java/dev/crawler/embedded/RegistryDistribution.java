package dev.crawler.embedded;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.jspecify.annotations.Nullable;

/**
 * The Apicurio Registry distribution ({@code
 * io.apicurio:apicurio-registry-app:<version>:tar.gz:all} from Maven Central) that the child
 * process registry runs (for the integration tests, a cluster of several brokers, and a data
 * directory an earlier version wrote): where its archive is, and the directory it is unpacked into
 * (once per version, shared by every test run and crawl of this user).
 *
 * <p>The archive is looked for, in order: the {@code crawler.registry.dist} system property, the
 * {@code CRAWLER_REGISTRY_DIST} environment variable, next to the jar this class was loaded from
 * (the crawler's {@code lib/} directory), and the local Maven repository, where the build put it.
 */
final class RegistryDistribution {

  static final String PROPERTY = "crawler.registry.dist";
  static final String ENVIRONMENT = "CRAWLER_REGISTRY_DIST";

  private RegistryDistribution() {}

  /** The registry version the build was made with. */
  static String version() {
    Properties props = new Properties();
    try (InputStream in = RegistryDistribution.class.getResourceAsStream("registry.properties")) {
      if (in == null) {
        throw new IllegalStateException("registry.properties is missing from the embedded module");
      }
      props.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return props.getProperty("apicurio.version");
  }

  /**
   * The runnable registry jar, unpacking the distribution first when this version was never
   * unpacked.
   *
   * @throws IllegalStateException when the archive is nowhere to be found, naming every place
   *     looked
   */
  static Path runnerJar() {
    String version = version();
    Path home = cacheDir().resolve("apicurio-registry-" + version);
    Path runner = home.resolve("apicurio-registry-app-" + version + "-runner.jar");
    if (Files.exists(home.resolve(".complete")) && Files.exists(runner)) {
      return runner;
    }
    unpack(archive(version), home);
    if (!Files.exists(runner)) {
      throw new IllegalStateException(
          "the registry distribution unpacked in " + home + " has no " + runner.getFileName());
    }
    return runner;
  }

  private static Path archive(String version) {
    String fileName = "apicurio-registry-app-" + version + "-all.tar.gz";
    List<Path> candidates = new ArrayList<>();
    Optional.ofNullable(System.getProperty(PROPERTY))
        .filter(s -> !s.isBlank())
        .map(Path::of)
        .ifPresent(candidates::add);
    Optional.ofNullable(System.getenv(ENVIRONMENT))
        .filter(s -> !s.isBlank())
        .map(Path::of)
        .ifPresent(candidates::add);
    Path jarDir = codeSourceDirectory();
    if (jarDir != null) {
      candidates.add(jarDir.resolve(fileName));
    }
    String repository =
        System.getProperty("maven.repo.local", System.getProperty("user.home") + "/.m2/repository");
    candidates.add(
        Path.of(repository, "io", "apicurio", "apicurio-registry-app", version, fileName));
    return candidates.stream()
        .filter(Files::isRegularFile)
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "the schema registry distribution "
                        + fileName
                        + " was not found; looked at "
                        + candidates
                        + ". Build the project with Maven (it downloads it), set "
                        + PROPERTY
                        + " to its path, or pass --schema-registry to use a running registry."));
  }

  private static @Nullable Path codeSourceDirectory() {
    try {
      var source = RegistryDistribution.class.getProtectionDomain().getCodeSource();
      if (source == null) {
        return null;
      }
      Path location = Path.of(source.getLocation().toURI());
      return Files.isRegularFile(location) ? location.getParent() : null;
    } catch (URISyntaxException | SecurityException e) {
      return null;
    }
  }

  private static Path cacheDir() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("kafka-crawler");
  }

  /**
   * Unpacks into a fresh sibling directory and renames it into place, so that a process interrupted
   * half-way, or two processes unpacking at once, never leave a half-unpacked registry behind.
   */
  private static void unpack(Path archive, Path home) {
    Path staging;
    try {
      Files.createDirectories(home.getParent());
      staging = Files.createTempDirectory(home.getParent(), home.getFileName() + ".unpacking-");
      try (InputStream file = Files.newInputStream(archive);
          TarArchiveInputStream tar =
              new TarArchiveInputStream(
                  new GzipCompressorInputStream(new BufferedInputStream(file, 1 << 16)))) {
        TarArchiveEntry entry;
        while ((entry = tar.getNextEntry()) != null) {
          Path target = staging.resolve(entry.getName()).normalize();
          if (!target.startsWith(staging)) {
            throw new IOException(
                "archive entry " + entry.getName() + " points outside the target directory");
          }
          if (entry.isDirectory()) {
            Files.createDirectories(target);
          } else {
            Files.createDirectories(target.getParent());
            Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
          }
        }
      }
      Files.createFile(staging.resolve(".complete"));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot unpack the schema registry " + archive + " into " + home.getParent(), e);
    }
    try {
      deleteRecursively(home);
      Files.move(staging, home, StandardCopyOption.ATOMIC_MOVE);
    } catch (FileAlreadyExistsException
        | DirectoryNotEmptyException
        | AtomicMoveNotSupportedException e) {
      // another process finished first; its copy is as good as ours
      deleteRecursively(staging);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot move the unpacked registry into " + home, e);
    }
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
