package dev.crawler.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real schema registry, Apicurio Registry storing its schemas in an H2 file under the work
 * directory, run as a child process on a free port of 127.0.0.1. It serves the Confluent-compatible
 * API under {@link #url()}, the same API a Confluent Schema Registry serves, so the serde and any
 * Confluent consumer talk to it unchanged.
 *
 * <p>The child never outlives this JVM: {@link #close()} stops it, a shutdown hook stops it when
 * the JVM exits, and a watchdog process stops it when the JVM is killed outright.
 */
public final class EmbeddedSchemaRegistry implements SchemaRegistryServer {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedSchemaRegistry.class);
  private static final String CCOMPAT_PATH = "/apis/ccompat/v7";
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);

  private final Process process;
  private final String baseUrl;
  private final Path logFile;
  private final ClassDataArchive archive;
  private final Thread shutdownHook;
  private @Nullable Process watchdog;

  private EmbeddedSchemaRegistry(
      Process process, String baseUrl, Path logFile, ClassDataArchive archive) {
    this.process = process;
    this.baseUrl = baseUrl;
    this.logFile = logFile;
    this.archive = archive;
    this.shutdownHook = new Thread(this::stopProcesses, "schema-registry-shutdown");
  }

  /**
   * Starts the registry and waits until it is ready.
   *
   * @param workDir where the registry's output goes ({@code schema-registry.log})
   * @throws IllegalStateException when the distribution is missing or the registry does not become
   *     ready (the message carries the end of its log)
   */
  public static EmbeddedSchemaRegistry start(Path workDir) {
    return start(workDir, FreePorts.next());
  }

  /** {@link #start(Path)} on this port of 127.0.0.1. */
  public static EmbeddedSchemaRegistry start(Path workDir, int port) {
    Path runner = RegistryDistribution.runnerJar();
    Path logFile = workDir.toAbsolutePath().resolve("schema-registry.log");
    ClassDataArchive archive = ClassDataArchive.in(runner.getParent(), "registry");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(archive.jvmOptions());
    command.addAll(
        List.of(
            "-Xmx256m",
            // a heap that starts small: with only -Xmx the whole 256 MB was the first heap, and
            // the start filled ~70 MB of fresh memory and paid one long collection (0.3 s less
            // CPU and time to ready with this, measured over 7 alternating rounds)
            "-Xms32m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-Dquarkus.http.host=127.0.0.1",
            "-Dquarkus.http.port=" + port,
            // schemas kept on disk beside the broker's log, so a resumed crawl reads its records
            // with the same ids
            "-Dquarkus.datasource.jdbc.url=jdbc:h2:file:"
                + workDir.toAbsolutePath().resolve("schema-registry").resolve("registry")
                + ";DB_CLOSE_ON_EXIT=FALSE",
            "-Dquarkus.datasource.jdbc.initial-size=2",
            "-Dquarkus.datasource.jdbc.min-size=2",
            "-Dquarkus.log.level=WARN",
            "-Dquarkus.log.category.\"io.apicurio\".level=WARN",
            "-jar",
            runner.toString()));
    long started = System.nanoTime();
    Process process;
    try {
      Files.createDirectories(workDir);
      process =
          new ProcessBuilder(command)
              .directory(runner.getParent().toFile())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.to(logFile.toFile()))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the schema registry (" + runner + ")", e);
    }
    EmbeddedSchemaRegistry registry =
        new EmbeddedSchemaRegistry(process, baseUrlOf(port), logFile, archive);
    Runtime.getRuntime().addShutdownHook(registry.shutdownHook);
    registry.watchdog = startWatchdog(process);
    try {
      registry.awaitReady();
    } catch (RuntimeException e) {
      registry.close();
      throw e;
    }
    LOG.info(
        "Schema registry ready at {} in {} ms (pid {}, {})",
        registry.url(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
        process.pid(),
        archive.exists() ? "class data archive mapped" : "writing its class data archive at exit");
    return registry;
  }

  /**
   * Whether {@code workDir} holds schemas this registry stored there: a data directory whose
   * records carry this registry's ids.
   */
  public static boolean holdsSchemas(Path workDir) {
    return Files.isRegularFile(workDir.resolve("schema-registry").resolve("registry.mv.db"));
  }

  /** The Confluent-compatible API root, e.g. {@code http://127.0.0.1:41234/apis/ccompat/v7}. */
  @Override
  public String url() {
    return baseUrl + CCOMPAT_PATH;
  }

  /** The {@link #url()} of a registry started on this port of 127.0.0.1. */
  public static String urlOf(int port) {
    return baseUrlOf(port) + CCOMPAT_PATH;
  }

  private static String baseUrlOf(int port) {
    return "http://127.0.0.1:" + port;
  }

  /** The process id of the registry, for operators and tests. */
  public long pid() {
    return process.pid();
  }

  /** Stops the registry and waits for it to exit; idempotent. */
  @Override
  public void close() {
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down; the hook is running or will run
    }
    stopProcesses();
  }

  private void stopProcesses() {
    if (process.isAlive()) {
      process.destroy();
      boolean graceful = false;
      try {
        // a first run writes its class data archive as it exits: a second or two
        graceful = process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        if (!graceful) {
          process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
      if (graceful) {
        archive.keep();
      } else {
        archive.discard();
      }
      LOG.info("Schema registry at {} stopped", baseUrl);
    }
    Process dog = watchdog;
    if (dog != null) {
      dog.destroyForcibly();
    }
  }

  private void awaitReady() {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest ready =
        HttpRequest.newBuilder(URI.create(baseUrl + "/health/ready"))
            .timeout(Duration.ofSeconds(5))
            .GET()
            .build();
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the schema registry exited with code "
                + process.exitValue()
                + " before it was ready:\n"
                + logTail());
      }
      try {
        if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the schema registry", e);
      }
      try {
        process.waitFor(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the schema registry", e);
      }
    }
    throw new IllegalStateException(
        "the schema registry was not ready after "
            + READY_TIMEOUT.toSeconds()
            + " s:\n"
            + logTail());
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(logFile, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log at " + logFile + ")";
    }
  }

  /**
   * A shell loop that kills the registry when this JVM disappears without running its shutdown
   * hooks (kill -9, a crashed test fork). It ends by itself when either process is gone.
   */
  private static @Nullable Process startWatchdog(Process child) {
    long self = ProcessHandle.current().pid();
    String script =
        "while kill -0 "
            + self
            + " 2>/dev/null && kill -0 "
            + child.pid()
            + " 2>/dev/null; do sleep 1; done; kill "
            + child.pid()
            + " 2>/dev/null";
    try {
      return new ProcessBuilder("sh", "-c", script)
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
    } catch (IOException e) {
      LOG.debug("No watchdog for the schema registry (no sh): {}", e.toString());
      return null;
    }
  }
}
