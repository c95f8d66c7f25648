package dev.crawler.render.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BrowserLocationTest {

  @ParameterizedTest(name = "setting={0} env={1} installed={2} → {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        // setting | CRAWLER_BROWSER | executables (space-separated) | found
        "/opt/chrome | /env/chrome | /opt/chrome /env/chrome | /opt/chrome",
        "''          | /env/chrome | /opt/chrome /env/chrome | /env/chrome",
        "/opt/chrome | ''          | /usr/bin/chromium       | ''",
        "''          | ''          | /usr/bin/chromium-headless-shell /usr/bin/chromium | /usr/bin/chromium-headless-shell",
        "''          | ''          | /usr/bin/chromium-headless-shell /usr/lib/chromium/chromium-headless-shell | /usr/lib/chromium/chromium-headless-shell",
        "''          | ''          | /usr/bin/chromium /usr/lib/chromium/chromium | /usr/lib/chromium/chromium",
        "''          | ''          | /usr/bin/chromium | /usr/bin/chromium",
        "''          | ''          | /usr/lib/chromium/chromium | ''",
        "''          | ''          | ''                | ''",
      })
  void findsTheBrowser(String setting, String env, String executables, String expected) {
    Set<Path> installed =
        Arrays.stream(executables.split(" "))
            .filter(s -> !s.isBlank())
            .map(Path::of)
            .collect(Collectors.toSet());
    Predicate<Path> isExecutable = installed::contains;

    Optional<Path> found =
        BrowserLocation.find(
            Optional.of(setting), Map.of(BrowserLocation.ENVIRONMENT_VARIABLE, env), isExecutable);

    assertThat(found.map(Path::toString).orElse("")).isEqualTo(expected);
  }
}
