package dev.crawler.archive.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArchiveDirectoryTest {

  private static final String PARTITION = "crawl.fetch-results-3";

  @TempDir Path directory;

  @Test
  void removesAFileLeftOpenWhileItWasWritten() throws IOException {
    ArchiveFile file = open(1);

    ArchiveDirectory.Recovery recovery =
        ArchiveDirectory.recover(directory, partitions -> Map.of());

    assertThat(recovery.removed()).containsExactly(file.name());
    assertThat(files()).isEmpty();
  }

  @Test
  void keepsASyncedFileWhoseOffsetsWereCommittedUnderItsName() throws IOException {
    ArchiveFile file = open(2);
    file.sync(Map.of(PARTITION, 40L));
    file.close();

    ArchiveDirectory.Recovery recovery =
        ArchiveDirectory.recover(
            directory,
            partitions -> Map.of(PARTITION, new ArchiveDirectory.Committed(40, file.name())));

    assertThat(recovery.kept()).containsExactly(file.name());
    assertThat(files()).containsExactly(file.name());
  }

  @Test
  void removesASyncedFileWhoseCommitDidNotHappen() throws IOException {
    ArchiveFile file = open(3);
    file.sync(Map.of(PARTITION, 40L));
    file.close();

    ArchiveDirectory.Recovery recovery =
        ArchiveDirectory.recover(
            directory,
            partitions -> Map.of(PARTITION, new ArchiveDirectory.Committed(12, "an-earlier-file")));

    assertThat(recovery.removed()).containsExactly(file.name());
    assertThat(files()).isEmpty();
  }

  @Test
  void keepsAndReportsAFileCommittedPastUnderAnotherName() throws IOException {
    ArchiveFile file = open(4);
    file.sync(Map.of(PARTITION, 40L));
    file.close();

    ArchiveDirectory.Recovery recovery =
        ArchiveDirectory.recover(
            directory,
            partitions -> Map.of(PARTITION, new ArchiveDirectory.Committed(90, "a-later-file")));

    assertThat(recovery.ambiguous()).containsExactly(file.name());
    assertThat(files()).containsExactly(file.name());
  }

  @Test
  void leavesFinishedFilesAlone() throws IOException {
    ArchiveFile file = open(5);
    file.sync(Map.of(PARTITION, 7L));
    file.finish();

    ArchiveDirectory.Recovery recovery =
        ArchiveDirectory.recover(directory, partitions -> Map.of());

    assertThat(recovery.kept()).isEmpty();
    assertThat(recovery.removed()).isEmpty();
    assertThat(files()).containsExactly(file.name());
  }

  @Test
  void namesFilesAsWarcWritersDo() {
    assertThat(ArchiveFile.name("crawl", Instant.parse("2026-11-26T12:34:56.789Z"), 42, "pod-0"))
        .isEqualTo("crawl-20261126123456789-00042-pod-0.warc.gz");
  }

  private ArchiveFile open(long serial) throws IOException {
    ArchiveFile file =
        ArchiveFile.open(directory, "crawl", serial, "test", Instant.parse("2026-11-26T12:00:00Z"));
    file.write(List.of());
    return file;
  }

  private List<String> files() throws IOException {
    try (var stream = Files.list(directory)) {
      return stream.map(path -> path.getFileName().toString()).sorted().toList();
    }
  }
}
