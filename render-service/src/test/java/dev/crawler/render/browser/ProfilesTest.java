package dev.crawler.render.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProfilesTest {

  @TempDir Path root;

  @ParameterizedTest
  @CsvSource({
    "browser-1234-1, 1234",
    "browser-7-42, 7",
    "browser-x-1, -1",
    "browser-12, -1",
    "other-12-1, -1",
  })
  void aProfilesNameSaysWhichProcessMadeIt(String name, long owner) {
    OptionalLong found = Profiles.ownerOf(name);

    assertThat(found.orElse(-1)).isEqualTo(owner);
  }

  @Test
  void onlyProfilesOfProcessesThatAreGoneAreRemoved() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Path stale = Files.createDirectories(root.resolve("browser-" + gone.pid() + "-1/Default"));
    Path live = Profiles.create(root, 99);
    Path other = Files.createDirectory(root.resolve("keep-me"));

    int removed = Profiles.removeStale(root);

    assertThat(removed).isEqualTo(1);
    assertThat(stale.getParent()).doesNotExist();
    assertThat(live).isDirectory();
    assertThat(other).isDirectory();
    assertThat(live.getFileName().toString())
        .isEqualTo("browser-" + ProcessHandle.current().pid() + "-99");
  }

  @Test
  void deletesATreeWithItsLinks() throws IOException {
    Path profile = Files.createDirectories(root.resolve("p/a/b"));
    Files.writeString(profile.resolve("f"), "x");
    Files.createSymbolicLink(root.resolve("p/SingletonLock"), Path.of("host-123"));

    Profiles.delete(root.resolve("p"));

    try (Stream<Path> left = Files.list(root)) {
      assertThat(left).isEmpty();
    }
  }
}
