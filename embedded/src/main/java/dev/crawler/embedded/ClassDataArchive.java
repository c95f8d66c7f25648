package dev.crawler.embedded;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A dynamic class-data-sharing archive for a child JVM (JEP 350): the classes a run of the child
 * loaded, already parsed and verified, which later runs map instead of loading them from their jars
 * again. For the schema registry (a Quarkus application of ~9,000 classes) it halves the start-up:
 * ~4 s of CPU and ~4 s until ready without, ~2.3 s of each with.
 *
 * <p>The first run of a child writes the archive when it exits ({@code -XX:ArchiveClassesAtExit})
 * to a file of its own, which {@link #keep()} moves into place only after a graceful exit, so a
 * child killed while writing leaves no half archive behind and concurrent first runs do not clash.
 * Every later run maps it ({@code -XX:SharedArchiveFile}). The archive is named after the Java
 * runtime that wrote it: a JVM refuses another build's archive (it warns in the child's log and
 * loads classes as usual), and the archive of another runtime is never offered to it.
 */
final class ClassDataArchive {

  private static final Logger LOG = LoggerFactory.getLogger(ClassDataArchive.class);

  private final Path archive;
  private final Path written;
  private final boolean exists;

  private ClassDataArchive(Path archive, Path written, boolean exists) {
    this.archive = archive;
    this.written = written;
    this.exists = exists;
  }

  /** The archive named {@code name} in {@code directory}, for this Java runtime. */
  static ClassDataArchive in(Path directory, String name) {
    String runtime = Runtime.version().toString().replaceAll("[^A-Za-z0-9.+-]", "_");
    Path archive = directory.resolve(name + "-java-" + runtime + ".jsa");
    Path written =
        directory.resolve(
            name + "-java-" + runtime + ".jsa." + ProcessHandle.current().pid() + ".tmp");
    removeLeftovers(directory, name);
    return new ClassDataArchive(
        archive, written, Files.isRegularFile(archive) && Files.isReadable(archive));
  }

  /**
   * Removes archives that JVMs no longer running began to write ({@code <name>-….jsa.<pid>.tmp}): a
   * JVM killed outright during a first run leaves one behind, tens of megabytes.
   */
  private static void removeLeftovers(Path directory, String name) {
    try (DirectoryStream<Path> files =
        Files.newDirectoryStream(directory, name + "-java-*.jsa.*.tmp")) {
      for (Path file : files) {
        String fileName = file.getFileName().toString();
        String pid = fileName.substring(fileName.lastIndexOf(".jsa.") + 5, fileName.length() - 4);
        boolean isWriterAlive =
            pid.chars().allMatch(Character::isDigit)
                && ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
        if (!isWriterAlive) {
          Files.deleteIfExists(file);
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("Leftover class data archives in {} not removed ({})", directory, e.toString());
    }
  }

  /** The child JVM's options: map the archive, or write it at exit when there is none yet. */
  List<String> jvmOptions() {
    return exists
        ? List.of("-XX:SharedArchiveFile=" + archive)
        : List.of("-XX:ArchiveClassesAtExit=" + written);
  }

  /** Whether the child maps an existing archive. */
  boolean exists() {
    return exists;
  }

  /**
   * After the child exited gracefully: puts the archive it wrote in place. Does nothing when the
   * child mapped one, wrote none (a JVM without a base archive cannot) or could not be moved into
   * place.
   */
  void keep() {
    if (exists || !Files.isRegularFile(written)) {
      return;
    }
    try {
      Files.move(
          written, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      LOG.debug("Class data archive written to {}", archive);
    } catch (IOException e) {
      LOG.debug("Class data archive not kept ({})", e.toString());
      discard();
    }
  }

  /** After the child was killed: removes whatever part of an archive it wrote. */
  void discard() {
    try {
      Files.deleteIfExists(written);
    } catch (IOException e) {
      LOG.debug("Cannot remove {} ({})", written, e.toString());
    }
  }
}
