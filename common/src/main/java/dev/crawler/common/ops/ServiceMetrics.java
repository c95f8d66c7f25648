package dev.crawler.common.ops;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The Prometheus registry of a service process: JVM and process meters, every meter tagged with the
 * service.
 */
public final class ServiceMetrics {

  private ServiceMetrics() {}

  /**
   * A registry for the process of one service, added to Micrometer's global registry so that the
   * meters of {@link CrawlMetrics} and the service's own are scraped from it.
   *
   * @param service the service's name, the {@code service} tag of every meter
   */
  @SuppressWarnings("resource") // JvmGcMetrics lives as long as the process
  public static PrometheusMeterRegistry forService(String service) {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    registry.config().commonTags("service", service);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    Metrics.addRegistry(registry);
    return registry;
  }
}
