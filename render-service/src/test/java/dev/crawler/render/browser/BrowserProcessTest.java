package dev.crawler.render.browser;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BrowserProcessTest {

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "Name:\tjava\\nUid:\t0\t0\t0\t0\\nGid:\t0 | true",
        "Name:\tjava\\nUid:\t1000\t1000\t1000\t1000\\n | false",
        "Uid:\t10\t0\t0\t0 | false",
        "Name:\tjava | false",
      })
  void runsAsRootWhenItsRealUserIdIsZero(String status, boolean root) {
    assertThat(BrowserProcess.isRoot(status.replace("\\n", "\n"))).isEqualTo(root);
  }
}
