package dev.crawler.archive.domain;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * What a crash left in the archive directory, settled before a writer starts: a file still being
 * written ({@code .open}) holds records whose offsets were never committed, and is removed (its
 * records are read again from the committed offsets and written to a new file); a file synced with
 * its offsets beside it ({@code .offsets}) waited for its commit: it is kept, under its final name,
 * when the group's committed offsets are its own (the commit happened before the crash), and
 * removed when they are behind its records (the commit did not happen).
 *
 * <p>One case stays ambiguous: the commit did not happen, the partitions went to another writer
 * which archived the same records again and committed past them before this one came back. The
 * committed offsets are then past the file's, with another file's name: the file is kept, since
 * removing it would lose its records if its commit had happened; its records' ids are those of the
 * other file's copies, so a reader can tell the duplicates. It takes a crash in the moment between
 * a file's sync and its commit, and the partitions moving before the restart.
 */
public final class ArchiveDirectory {

  /** What the group committed for a partition: the next offset, and the file named with it. */
  public record Committed(long offset, String metadata) {}

  /** What recovery did, file by file, for the log. */
  public record Recovery(List<String> kept, List<String> removed, List<String> ambiguous) {}

  private ArchiveDirectory() {}

  /**
   * Settles the directory's unfinished files.
   *
   * @param committed the group's committed offsets of these partitions ({@code topic-partition}),
   *     those without any left out
   */
  public static Recovery recover(
      Path directory, Function<List<String>, Map<String, Committed>> committed) throws IOException {
    List<String> kept = new ArrayList<>();
    List<String> removed = new ArrayList<>();
    List<String> ambiguous = new ArrayList<>();
    if (!Files.isDirectory(directory)) {
      return new Recovery(kept, removed, ambiguous);
    }
    List<Path> open;
    try (Stream<Path> files = Files.list(directory)) {
      open = files.filter(f -> f.getFileName().toString().endsWith(ArchiveFile.OPEN)).toList();
    }
    for (Path file : open) {
      String fileName = file.getFileName().toString();
      String name = fileName.substring(0, fileName.length() - ArchiveFile.OPEN.length());
      Path offsetsFile = directory.resolve(name + ArchiveFile.OFFSETS);
      Map<String, Long> offsets = Files.exists(offsetsFile) ? read(offsetsFile) : Map.of();
      if (offsets.isEmpty()) {
        // written to when the writer stopped: its offsets were never committed
        Files.delete(file);
        Files.deleteIfExists(offsetsFile);
        removed.add(name);
        continue;
      }
      Map<String, Committed> found = committed.apply(List.copyOf(offsets.keySet()));
      boolean mine = true;
      boolean past = true;
      for (Map.Entry<String, Long> partition : offsets.entrySet()) {
        Committed at = found.get(partition.getKey());
        mine &= at != null && at.metadata().equals(name);
        past &= at != null && at.offset() >= partition.getValue();
      }
      if (mine || past) {
        ArchiveFile.move(file, directory.resolve(name));
        Files.deleteIfExists(offsetsFile);
        (mine ? kept : ambiguous).add(name);
      } else {
        Files.delete(file);
        Files.deleteIfExists(offsetsFile);
        removed.add(name);
      }
    }
    try (Stream<Path> files = Files.list(directory)) {
      for (Path orphan :
          files.filter(f -> f.getFileName().toString().endsWith(ArchiveFile.OFFSETS)).toList()) {
        Files.delete(orphan); // its file was finished and the offsets' deletion not reached
      }
    }
    ArchiveFile.syncDirectory(directory);
    return new Recovery(kept, removed, ambiguous);
  }

  private static Map<String, Long> read(Path offsetsFile) throws IOException {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(offsetsFile, StandardCharsets.ISO_8859_1)) {
      properties.load(reader);
    }
    Map<String, Long> offsets = new HashMap<>();
    for (String partition : properties.stringPropertyNames()) {
      try {
        offsets.put(partition, Long.parseLong(properties.getProperty(partition).strip()));
      } catch (NumberFormatException e) {
        return Map.of(); // a torn write: the commit cannot have followed it
      }
    }
    return offsets;
  }
}
