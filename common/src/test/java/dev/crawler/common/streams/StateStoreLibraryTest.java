package dev.crawler.common.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

class StateStoreLibraryTest {

  @TempDir Path directory;

  @Test
  void unpacksTheLibraryOnceUnderTheNameRocksDbLinksFromADirectory() throws IOException {
    Path kept = StateStoreLibrary.keep(directory);

    assertThat(kept).startsWith(directory).isRegularFile();
    assertThat(kept.getFileName()).hasToString(Environment.getJniLibraryFileName("rocksdbjni"));
    try (InputStream packed =
        RocksDB.class
            .getClassLoader()
            .getResourceAsStream(Environment.getJniLibraryFileName("rocksdb"))) {
      assertThat(Files.readAllBytes(kept)).isEqualTo(packed.readAllBytes());
    }
    try (var files = Files.list(kept.getParent())) {
      assertThat(files).containsExactly(kept); // no file left from the writing
    }
  }

  @Test
  void aKeptCopyIsLinkedAsItIs() throws IOException {
    Path kept = StateStoreLibrary.keep(directory);
    FileTime written = FileTime.fromMillis(1_000_000L);
    Files.setLastModifiedTime(kept, written);

    assertThat(StateStoreLibrary.keep(directory)).isEqualTo(kept);
    assertThat(Files.getLastModifiedTime(kept)).isEqualTo(written);
  }

  @Test
  void theKeptCopyLinks() throws IOException {
    Path kept = StateStoreLibrary.keep(directory);

    // a no-op when an earlier test of this JVM linked the library already
    RocksDB.loadLibrary(List.of(kept.getParent().toString()));

    try (Options options = new Options()) {
      assertThat(options.createIfMissing()).isFalse();
    }
  }

  @Test
  void aDirectoryThatCannotBeMadeIsSaid() throws IOException {
    Path file = Files.writeString(directory.resolve("not-a-directory"), "");

    assertThatThrownBy(() -> StateStoreLibrary.keep(file)).isInstanceOf(IOException.class);
  }

  @Test
  void aCopyThatCannotBeKeptLeavesTheLibraryToItsOwnLoader() throws IOException {
    Path file = Files.writeString(directory.resolve("not-a-directory"), "");
    StateStoreLibrary.link(file.toString());

    try (Options options = new Options()) {
      assertThat(options.createIfMissing()).isFalse();
    }
  }
}
