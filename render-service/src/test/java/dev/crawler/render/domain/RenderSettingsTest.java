package dev.crawler.render.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RenderSettingsTest {

  private final RenderSettings defaults = RenderSettings.builder(Path.of("/bin/browser")).build();

  @Test
  void defaultsBoundEveryPage() {
    assertThat(defaults.maxWait()).isEqualTo(Duration.ofSeconds(10));
    assertThat(defaults.quietWindow()).isEqualTo(Duration.ofMillis(500));
    assertThat(defaults.maxRequestsPerPage()).isEqualTo(200);
    assertThat(defaults.maxDomBytes()).isEqualTo(10 * 1024 * 1024);
    assertThat(defaults.reuseTabs()).isTrue();
    assertThat(defaults.isBlockedType("Image")).isTrue();
    assertThat(defaults.isBlockedType("Font")).isTrue();
    assertThat(defaults.isBlockedType("Media")).isTrue();
    assertThat(defaults.isBlockedType("Script")).isFalse();
    assertThat(defaults.toBuilder().build()).isEqualTo(defaults);
  }

  @Test
  void blockedTypesAreCaseInsensitive() {
    RenderSettings settings =
        defaults.toBuilder().blockedResourceTypes(Set.of("Stylesheet")).build();

    assertThat(settings.isBlockedType("stylesheet")).isTrue();
    assertThat(settings.isBlockedType("Image")).isFalse();
  }

  @Test
  void refusesBoundsThatCannotWork() {
    assertThatThrownBy(() -> defaults.toBuilder().maxWait(Duration.ZERO).build())
        .hasMessageContaining("maxWait");
    assertThatThrownBy(() -> defaults.toBuilder().maxPagesAtOnce(0).build())
        .hasMessageContaining("maxPagesAtOnce");
  }
}
