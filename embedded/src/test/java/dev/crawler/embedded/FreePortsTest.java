package dev.crawler.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FreePortsTest {

  @Test
  void neverHandsOutTheSamePortTwiceInARow() {
    Set<Integer> ports = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      assertThat(ports.add(FreePorts.next())).as("port handed out twice").isTrue();
    }
  }
}
