package dev.crawler.render;

import dev.crawler.render.browser.Renderer;
import dev.crawler.render.domain.RenderOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The render tier's meters: renders by how they ended ({@code
 * crawler_render_pages_total{outcome}}), the time they took ({@code
 * crawler_render_duration_seconds}), failures by cause ({@code
 * crawler_render_failures_total{reason}}), browsers started, replacements included ({@code
 * crawler_render_browser_starts_total}), and the pages rendering and tabs kept now. Thread-safe.
 */
final class RenderMetrics {

  private final MeterRegistry registry;
  private final Timer duration;

  RenderMetrics(MeterRegistry registry, Renderer renderer) {
    this.registry = registry;
    this.duration =
        Timer.builder("crawler.render.duration")
            .description("Time to render one page, navigation to the read of its DOM")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofMillis(10))
            .maximumExpectedValue(Duration.ofMinutes(5))
            .register(registry);
    FunctionCounter.builder("crawler.render.browser.starts", renderer, Renderer::browsersStarted)
        .description(
            "Browsers started: the first, and each replacement of one that died or retired")
        .register(registry);
    Gauge.builder("crawler.render.rendering", renderer, Renderer::rendering)
        .description("Pages being rendered now")
        .register(registry);
    Gauge.builder("crawler.render.idle.tabs", renderer, Renderer::idleTabs)
        .description("Tabs kept for their origin's next page")
        .register(registry);
  }

  /** Counts one render by how it ended. */
  void rendered(RenderOutcome outcome) {
    duration.record(outcome.durationMillis(), TimeUnit.MILLISECONDS);
    String ended;
    if (outcome instanceof RenderOutcome.Rendered) {
      ended = "rendered";
    } else if (outcome instanceof RenderOutcome.NotRendered) {
      ended = "not_rendered";
    } else if (outcome instanceof RenderOutcome.TimedOut) {
      ended = "timed_out";
    } else {
      ended = "failed";
    }
    Counter.builder("crawler.render.pages")
        .description("Pages the render tier loaded, by how the render ended")
        .tag("outcome", ended)
        .register(registry)
        .increment();
    if (outcome instanceof RenderOutcome.Failed failed) {
      Counter.builder("crawler.render.failures")
          .description("Renders that failed, by cause")
          .tag("reason", failed.reason().name().toLowerCase(Locale.ROOT))
          .register(registry)
          .increment();
    }
  }
}
