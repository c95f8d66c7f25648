package dev.crawler.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StablePortsTest {

  @TempDir Path dataDir;

  @Test
  void aDataDirectoryKeepsItsPortsFromOneStartToTheNext() {
    StablePorts first = StablePorts.of(dataDir);

    assertThat(StablePorts.of(dataDir)).isEqualTo(first);
    assertThat(first.kafka()).isNotIn(first.controller(), first.registry());
  }

  @Test
  void aPortAnotherProcessTookIsReplacedByAFreeOne() throws Exception {
    StablePorts first = StablePorts.of(dataDir);
    try (ServerSocket taken =
        new ServerSocket(first.kafka(), 1, InetAddress.getLoopbackAddress())) {
      StablePorts second = StablePorts.of(dataDir);

      assertThat(second.kafka()).isNotEqualTo(first.kafka());
      assertThat(second.registry()).isEqualTo(first.registry());
    }
  }

  @Test
  void anUnreadableFileMeansNewPorts() throws Exception {
    Files.writeString(dataDir.resolve(StablePorts.FILE), "kafka=not-a-port\n");

    assertThat(StablePorts.of(dataDir).kafka()).isBetween(1, 65535);
  }
}
