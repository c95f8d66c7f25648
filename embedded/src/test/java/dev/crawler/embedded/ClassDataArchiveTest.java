package dev.crawler.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassDataArchiveTest {

  @TempDir Path directory;

  /**
   * Runs a child JVM with the archive's options; {@code -Xshare:on} makes a JVM that cannot map its
   * archive fail.
   */
  private static int runChild(List<String> options, String... more)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(options);
    command.addAll(List.of(more));
    command.add("-version");
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start()
        .waitFor();
  }

  @Test
  void theFirstRunWritesTheArchiveAndLaterRunsMapIt() throws Exception {
    ClassDataArchive first = ClassDataArchive.in(directory, "child");
    assertThat(first.exists()).isFalse();
    assertThat(first.jvmOptions())
        .singleElement()
        .asString()
        .startsWith("-XX:ArchiveClassesAtExit=" + directory);

    assertThat(runChild(first.jvmOptions())).isZero();
    first.keep();

    ClassDataArchive second = ClassDataArchive.in(directory, "child");
    assertThat(second.exists()).isTrue();
    assertThat(second.jvmOptions())
        .singleElement()
        .asString()
        .startsWith("-XX:SharedArchiveFile=" + directory)
        .endsWith(".jsa");
    assertThat(runChild(second.jvmOptions(), "-Xshare:on")).as("the archive maps").isZero();
    try (var files = Files.list(directory)) {
      assertThat(files.map(path -> path.getFileName().toString()))
          .singleElement()
          .asString()
          .startsWith("child-java-")
          .endsWith(".jsa");
    }
  }

  @Test
  void removesWhatAJvmNoLongerRunningBeganToWriteAndKeepsWhatALiveOneIsWriting() throws Exception {
    Process gone =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version")
            .start();
    gone.waitFor();
    long dead = gone.pid();
    Path left = directory.resolve("child-java-x.jsa." + dead + ".tmp");
    Path ours = directory.resolve("child-java-x.jsa." + ProcessHandle.current().pid() + ".tmp");
    Path other = directory.resolve("other-java-x.jsa." + dead + ".tmp");
    for (Path file : List.of(left, ours, other)) {
      Files.writeString(file, "part of an archive");
    }

    ClassDataArchive.in(directory, "child");

    assertThat(left).doesNotExist();
    assertThat(ours).exists();
    assertThat(other).as("another child's archives are its own business").exists();
  }

  @Test
  void anArchiveOfAChildThatWasKilledIsNotKept() throws Exception {
    ClassDataArchive first = ClassDataArchive.in(directory, "child");
    Path written =
        Path.of(first.jvmOptions().get(0).substring("-XX:ArchiveClassesAtExit=".length()));
    Files.writeString(written, "half an archive");

    first.discard();

    assertThat(written).doesNotExist();
    assertThat(ClassDataArchive.in(directory, "child").exists()).isFalse();
  }
}
