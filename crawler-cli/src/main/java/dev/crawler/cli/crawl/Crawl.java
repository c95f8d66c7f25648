package dev.crawler.cli.crawl;

import dev.crawler.archive.ArchiveApp;
import dev.crawler.cli.ConfigCommand;
import dev.crawler.cli.ConsoleLog;
import dev.crawler.committer.CommitterApp;
import dev.crawler.committer.CommitterConfig;
import dev.crawler.common.HeadStart;
import dev.crawler.common.RunningService;
import dev.crawler.common.Seeds;
import dev.crawler.common.config.ServiceConfig;
import dev.crawler.common.control.ControlTopic;
import dev.crawler.common.streams.StateStores;
import dev.crawler.common.streams.StreamsServiceConfig;
import dev.crawler.common.url.RegisteredDomain;
import dev.crawler.embedded.EmbeddedCluster;
import dev.crawler.embedded.TopicInstaller;
import dev.crawler.events.ControlCommand;
import dev.crawler.events.ControlCommandType;
import dev.crawler.events.CrawlConfiguration;
import dev.crawler.fetcher.FetcherApp;
import dev.crawler.fetcher.FetcherConfig;
import dev.crawler.frontier.FrontierApp;
import dev.crawler.frontier.FrontierConfig;
import dev.crawler.frontier.FrontierProgress;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlConfigLoader;
import dev.crawler.parser.ParserApp;
import dev.crawler.parser.ParserConfig;
import dev.crawler.render.RenderApp;
import dev.crawler.schemas.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of {@code crawler crawl}: starts the cluster (or connects to one), creates the topics,
 * starts the four services, injects the seeds, reports progress, and stops everything when the
 * crawl is idle.
 */
final class Crawl {

  private static final Logger LOG = LoggerFactory.getLogger(Crawl.class);

  /** How long creating the topics may take. */
  private static final Duration TOPICS_TIMEOUT = Duration.ofSeconds(60);

  /** How often progress and idleness are checked. */
  static final Duration CHECK_INTERVAL = Duration.ofMillis(250);

  /**
   * How soon a check is followed by the next once the frontier has nothing in flight or to release
   * (its last input perhaps not committed yet, or its idleness being confirmed): the end is seen
   * without a quarter of a second per check added to every crawl, while the checks (two admin
   * requests each) stay four a second as long as the crawl is busy. The {@value #IDLE_CHECKS}
   * checks still span 100 ms, five times a producer's linger: a record sent just before the
   * frontier went idle is seen.
   */
  static final Duration CONFIRM_INTERVAL = Duration.ofMillis(50);

  /**
   * Consecutive idle checks before the crawl is over: the frontier must stay idle, not just pass
   * through zero.
   */
  static final int IDLE_CHECKS = 3;

  /**
   * How long a service may be not running (starting, or replacing a failed stream thread) before
   * the crawl gives up on it.
   */
  static final Duration SERVICE_DOWN_LIMIT = Duration.ofSeconds(30);

  /** Everything the command was asked to do, checked. */
  record Plan(
      List<String> seeds,
      CrawlSettings settings,
      Path dataDir,
      int partitions,
      Optional<String> bootstrapServers,
      Optional<String> schemaRegistry,
      Optional<Path> out,
      Optional<Path> chunks,
      Optional<Path> crawlLog,
      Optional<Path> warc,
      boolean forceRecrawl,
      boolean renders,
      Optional<Duration> runFor,
      boolean verbose) {}

  private final Plan plan;
  private final CrawlConsole console = new CrawlConsole(System.out, System.console() != null);
  private final List<RunningService> services = new ArrayList<>();
  private @Nullable EmbeddedCluster cluster;
  private @Nullable CrawlEvents events;
  private @Nullable Thread eventsThread;
  private @Nullable FrontierApp frontier;
  private @Nullable ArchiveApp archive;
  private boolean stopped;

  /**
   * Whether the frontier had nothing left to release at the last check: the Streams services then
   * commit as soon as their input pauses, and the crawl's last pages reach the end sooner.
   */
  private volatile boolean draining;

  private boolean servicesClosed;
  private volatile String stoppedService = "";

  private Crawl(Plan plan) {
    this.plan = plan;
  }

  /** Runs the crawl to its end; returns the exit code. */
  static int run(Plan plan) {
    Crawl crawl = new Crawl(plan);
    Thread hook = new Thread(crawl::stop, "crawl-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      return crawl.execute();
    } catch (IOException | RuntimeException e) {
      LOG.error("the crawl failed", e);
      System.err.println("crawler: the crawl failed: " + e.getMessage());
      return 1;
    } finally {
      crawl.stop();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is exiting: the hook runs, or ran, stop() itself
      }
    }
  }

  private int execute() throws IOException {
    Instant started = Instant.now();
    // the public suffix list (read when the frontier builds its topology) is read while the broker
    // starts
    HeadStart.run("public-suffixes", RegisteredDomain::load);
    // and the state stores' native library, which the frontier's first task would wait for
    HeadStart.run("state-store-library", StateStores::loadLibrary);
    Files.createDirectories(plan.dataDir());
    if (plan.verbose()) {
      ConsoleLog.beVerbose();
    }
    Optional<Path> log = ConsoleLog.alsoTo(logFile(plan.dataDir(), started));
    String bootstrapServers;
    String registryUrl;
    CrawlSettings settings = plan.settings();
    if (plan.bootstrapServers().isPresent()) {
      bootstrapServers = plan.bootstrapServers().get();
      registryUrl = plan.schemaRegistry().orElseThrow();
    } else {
      settings =
          settings.withDefault(
              ServiceConfig.KAFKA_PREFIX + ProducerConfig.COMPRESSION_TYPE_CONFIG,
              CrawlSettings.EMBEDDED_COMPRESSION);
      console.startingCluster(plan.dataDir());
      CrawlSettings embedded = settings;
      // the topics are created while the registry's JVM is still starting: only the broker is
      // needed
      cluster =
          EmbeddedCluster.start(
              plan.dataDir(),
              plan.partitions(),
              (bootstrap, registry) ->
                  installTopics(embedded.frontier(bootstrap, registry), (short) 1, true));
      bootstrapServers = cluster.bootstrapServers();
      registryUrl = cluster.schemaRegistryUrl();
    }
    FrontierConfig frontierConfig = settings.frontier(bootstrapServers, registryUrl);
    if (cluster == null) {
      // the cluster's default replication factor
      installTopics(frontierConfig, (short) -1, false);
    }
    Topics topics = frontierConfig.topics();
    Map<String, Object> kafka = frontierConfig.kafkaProperties();
    try (Admin admin = Admin.create(kafka)) {
      events = new CrawlEvents(kafka, topics, plan.crawlLog(), plan.out(), plan.chunks());
      eventsThread = new Thread(events, "crawl-events");
      eventsThread.start();

      // applied while the services start: the frontier reads it before it joins its group
      CompletableFuture<Void> configApplied = applyConfig(frontierConfig, kafka, topics);
      CrawlSettings fetcherSettings = settings.allowingSeedAddresses(plan.seeds());
      LOG.info(
          "the fetcher may connect to the seeds' addresses ({}) and to no other address of the"
              + " ranges it denies (fetcher.address.allow, fetcher.address.deny)",
          fetcherSettings.shared().getOrDefault(FetcherConfig.ADDRESS_ALLOW_CONFIG, "none"));
      CrawlSettings all = settings;
      // the first request needs the frontier and the fetcher: the seeds go as soon as those two
      // run, while the others (the parser sets up its import process) are still starting
      List<Callable<RunningService>> first = new ArrayList<>();
      first.add(() -> frontier = FrontierApp.start(frontierConfig, configApplied));
      first.add(() -> FetcherApp.start(fetcherSettings.fetcher(bootstrapServers, registryUrl)));
      List<Callable<RunningService>> others = new ArrayList<>();
      ParserConfig parserConfig = all.parser(bootstrapServers, registryUrl);
      others.add(() -> ParserApp.start(parserConfig));
      CommitterConfig committerConfig = all.committer(bootstrapServers, registryUrl);
      others.add(() -> CommitterApp.start(committerConfig));
      for (StreamsServiceConfig hop : List.of(frontierConfig, parserConfig, committerConfig)) {
        hop.commitWhileDraining(() -> draining);
      }
      if (plan.warc().isPresent()) {
        others.add(() -> archive = ArchiveApp.start(all.archive(bootstrapServers, registryUrl)));
      }
      if (plan.renders()) {
        others.add(() -> RenderApp.start(fetcherSettings.render(bootstrapServers, registryUrl)));
      }
      Instant[] seeded = new Instant[1];
      ServiceStarts.startAll(
          first,
          others,
          () -> {
            seeded[0] = Instant.now();
            seed(kafka, topics, seeded[0]);
            if (plan.forceRecrawl()) {
              control(kafka, topics, ControlCommandType.RECRAWL_ALL, seeded[0]);
            }
          },
          this::addService);

      Instant crawling = seeded[0];
      console.crawling(plan.seeds().size(), Duration.between(started, crawling));
      List<GroupLag> lags =
          List.of(
              new GroupLag(
                  admin,
                  frontierConfig.getString(FrontierConfig.APPLICATION_ID_CONFIG),
                  List.of(topics.discovered(), topics.outcomes(), topics.control())),
              // the frontier commits an origin's last outcome at once: the committer may not have
              // committed the documents of the same pages yet
              new GroupLag(
                  admin,
                  committerConfig.getString(CommitterConfig.APPLICATION_ID_CONFIG),
                  List.of(topics.parsed())));
      boolean finished = awaitIdle(lags, crawling);
      if (finished && plan.forceRecrawl()) {
        // the recrawl is over: URLs no page linked meanwhile
        // are orphans, handled by their orphans option
        control(kafka, topics, ControlCommandType.RECRAWL_ORPHANS, Instant.now());
        finished = awaitIdle(lags, crawling);
      }
      Instant ended = Instant.now();
      awaitArchive(admin, topics);
      Instant stopping = Instant.now();
      // the services commit what they hold as they close: the events are read to the end after
      closeServices();
      awaitEvents(admin);
      stop();
      if (!finished) {
        System.err.println(
            "crawler: the "
                + stoppedService
                + " service stopped unexpectedly; see "
                + log.map(Path::toString).orElse("the log above"));
        return 1;
      }
      console.summary(
          events,
          new CrawlConsole.Summary(
              Duration.between(crawling, ended),
              Duration.between(started, crawling),
              Duration.between(stopping, Instant.now()),
              plan.out(),
              plan.crawlLog(),
              log));
      return 0;
    }
  }

  /**
   * Creates the catalogue's topics that are missing, with this replication factor.
   *
   * @param embedded whether the cluster is the embedded one, started a moment ago: its group
   *     coordinator's topic is created meanwhile
   */
  private void installTopics(FrontierConfig config, short replicationFactor, boolean embedded) {
    try (Admin admin = Admin.create(config.kafkaProperties())) {
      TopicInstaller installer = new TopicInstaller(admin, TOPICS_TIMEOUT);
      CompletableFuture<Void> coordinator =
          embedded
              ? CompletableFuture.runAsync(installer::awaitGroupCoordinator)
                  .exceptionally(
                      e -> {
                        // only a head start: the first group's join asks again
                        LOG.warn("the group coordinator was not ready early: {}", e.toString());
                        return null;
                      })
              : CompletableFuture.completedFuture(null);
      installer.install(config.topics().all(), plan.partitions(), replicationFactor);
      coordinator.join();
    }
  }

  private synchronized void addService(RunningService service) {
    services.add(service);
  }

  private void seed(Map<String, Object> kafka, Topics topics, Instant now) {
    Seeds.send(kafka, topics, plan.seeds(), now);
  }

  /** Sends a command to every frontier task (one copy per partition of the control topic). */
  private void control(
      Map<String, Object> kafka, Topics topics, ControlCommandType type, Instant now) {
    try {
      ControlTopic.broadcast(
          kafka,
          topics,
          ControlCommand.newBuilder()
              .setCommand(type)
              .setIssuedAt(now)
              .setIssuedBy("crawler crawl --force-recrawl")
              .build());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while sending " + type, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "cannot send " + type + " to " + topics.control().name() + ": " + e.getCause(), e);
    }
  }

  /**
   * Waits until the frontier has nothing in flight and nothing it will release, and has read all
   * its input, for {@value #IDLE_CHECKS} checks in a row; prints progress meanwhile.
   *
   * @return false when a service stopped before the crawl was over
   */
  private boolean awaitIdle(List<GroupLag> lags, Instant crawling) {
    CountDownLatch over = new CountDownLatch(1);
    AtomicInteger idleChecks = new AtomicInteger();
    boolean[] failed = {false};
    long[] downSince = {0};
    ScheduledExecutorService checker =
        Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "crawl-progress"));
    Runnable[] check = new Runnable[1];
    check[0] =
        () -> {
          long started = System.nanoTime();
          boolean frontierIdle = false;
          try {
            Optional<FrontierProgress> progress = frontier.progress();
            progress.ifPresent(
                p -> console.progress(p, events, Duration.between(crawling, Instant.now())));
            frontierIdle = progress.isPresent() && progress.get().isIdle();
            draining = progress.isPresent() && progress.get().isDraining();
            boolean isIdle = frontierIdle && lags.stream().allMatch(GroupLag::isCaughtUp);
            if (plan.runFor().isPresent()) {
              // a run of a set length (recrawling goes on
              // when idle): it is over when the time is up
              if (Duration.between(crawling, Instant.now()).compareTo(plan.runFor().get()) >= 0) {
                over.countDown();
              }
            } else if (isIdle && progress.get().equals(frontier.progress().orElse(null))) {
              if (idleChecks.incrementAndGet() >= IDLE_CHECKS) {
                over.countDown();
              }
            } else {
              idleChecks.set(0);
            }
            Optional<RunningService> down =
                services.stream().filter(service -> !service.isRunning()).findFirst();
            if (down.isEmpty()) {
              downSince[0] = 0;
            } else if (downSince[0] == 0) {
              downSince[0] = System.nanoTime();
            } else if (System.nanoTime() - downSince[0] > SERVICE_DOWN_LIMIT.toNanos()) {
              stoppedService = down.get().name();
              failed[0] = true;
              over.countDown();
            }
          } catch (RuntimeException e) {
            LOG.warn("progress check failed: {}", e.toString());
          }
          // the next check: soon while the frontier has nothing to release, unless the checks
          // (the frontier's origins read one by one) would take more than a tenth of a thread
          Duration next =
              draining && plan.runFor().isEmpty()
                  ? confirmInterval(Duration.ofNanos(System.nanoTime() - started))
                  : CHECK_INTERVAL;
          try {
            checker.schedule(check[0], next.toMillis(), TimeUnit.MILLISECONDS);
          } catch (RejectedExecutionException e) {
            // the wait is over
          }
        };
    checker.schedule(check[0], CHECK_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    try {
      over.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      checker.shutdownNow();
      console.progressOver();
    }
    return !failed[0];
  }

  /**
   * How soon a check that took {@code took} is followed by the next while the frontier has nothing
   * to release: {@link #CONFIRM_INTERVAL}, or ten times as long as the check took, up to {@link
   * #CHECK_INTERVAL} (a crawl of many origins).
   */
  static Duration confirmInterval(Duration took) {
    Duration tenfold = took.multipliedBy(10);
    return tenfold.compareTo(CONFIRM_INTERVAL) <= 0
        ? CONFIRM_INTERVAL
        : tenfold.compareTo(CHECK_INTERVAL) >= 0 ? CHECK_INTERVAL : tenfold;
  }

  /**
   * Waits until every log entry and document event written so far has been read and written out.
   */
  private void awaitEvents(Admin admin) {
    try {
      Map<TopicPartition, Long> ends =
          GroupLag.endOffsets(
              admin, events.partitions().stream().map(TopicPartition::topic).distinct().toList());
      if (!events.awaitReached(ends, Duration.ofSeconds(30))) {
        LOG.warn("the last crawl-log entries and document events were not all read within 30 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.warn("could not wait for the last events: {}", e.toString());
    }
  }

  /**
   * Waits until the archive writer has read every exchange the crawl recorded (it closes its file
   * and commits when it stops).
   */
  private void awaitArchive(Admin admin, Topics topics) {
    if (archive == null) {
      return;
    }
    try {
      Map<TopicPartition, Long> ends =
          GroupLag.endOffsets(
              admin, List.of(topics.fetchResults().name(), topics.exchanges().name()));
      if (!archive.awaitRead(ends, Duration.ofSeconds(60))) {
        LOG.warn("the archive writer had not read every exchange within 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.warn("could not wait for the archive writer: {}", e.toString());
    }
  }

  /** Stops the services, the event follower and the cluster; safe to call more than once. */
  synchronized void stop() {
    if (stopped) {
      return;
    }
    stopped = true;
    closeServices();
    if (events != null) {
      events.close();
      join(eventsThread);
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /** Closes the services side by side, once. */
  private synchronized void closeServices() {
    if (servicesClosed) {
      return;
    }
    servicesClosed = true;
    List<Thread> closing = new ArrayList<>();
    for (RunningService service : services) {
      Thread thread = new Thread(service::close, "close-" + service.name());
      thread.start();
      closing.add(thread);
    }
    for (Thread thread : closing) {
      join(thread);
    }
  }

  /** The services' log of a crawl started at {@code started}: a file of its own per run. */
  static Path logFile(Path dataDir, Instant started) {
    return dataDir
        .resolve("logs")
        .resolve(
            "crawl-"
                + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)
                    .withZone(ZoneOffset.UTC)
                    .format(started)
                + ".log");
  }

  private static void join(@Nullable Thread thread) {
    if (thread == null) {
      return;
    }
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The {@code --config} file becomes the configuration in force (crawl.config), unless it says the
   * same as the one in force: a crawl run again with another file changes its configuration, as
   * {@code crawler config apply} does. Done on a thread of its own; the crawl log says who applied
   * it once it is in force.
   *
   * @return completes once the frontier may read the configuration in force: at once when none was
   *     applied before (the frontier's own file is this one), else once the file is published
   */
  private static CompletableFuture<Void> applyConfig(
      FrontierConfig frontierConfig, Map<String, Object> kafka, Topics topics) {
    String file = frontierConfig.getString(FrontierConfig.CRAWL_CONFIG_CONFIG).strip();
    CompletableFuture<Void> applied = new CompletableFuture<>();
    if (file.isEmpty()) {
      applied.complete(null);
      return applied;
    }
    Thread applying = new Thread(() -> apply(file, kafka, topics, applied), "crawl-config");
    applying.setDaemon(true);
    applying.start();
    return applied;
  }

  /** {@link #applyConfig}'s work, on its thread: publishes the file, then logs who applied it. */
  private static void apply(
      String file, Map<String, Object> kafka, Topics topics, CompletableFuture<Void> applied) {
    Optional<CrawlConfiguration> published;
    try {
      published = publishUnlessInForce(file, kafka, topics, applied);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      if (!applied.completeExceptionally(
          new IllegalStateException(
              "cannot publish the crawl configuration: " + e.getMessage(), e))) {
        LOG.warn(
            "the frontier decides with {}, but it could not be published as the configuration in"
                + " force: {}",
            file,
            e.toString());
      }
      return;
    }
    applied.complete(null);
    if (published.isEmpty()) {
      return;
    }
    try {
      ConfigCommand.logApplied(kafka, topics, published.get());
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      LOG.warn(
          "configuration {} is in force, but the crawl log does not say so: {}",
          published.get().getVersion(),
          e.toString());
    }
  }

  /**
   * Publishes the file unless the configuration in force says the same; completes {@code applied}
   * as soon as nothing was in force before: the frontier decides with its own file, this one, under
   * this version ({@link FrontierConfig#fileVersion()}), and reading it later changes nothing.
   *
   * @return the record published, if one was
   */
  private static Optional<CrawlConfiguration> publishUnlessInForce(
      String file, Map<String, Object> kafka, Topics topics, CompletableFuture<Void> applied)
      throws Exception {
    String text = Files.readString(Path.of(file));
    CrawlConfig config = CrawlConfigLoader.parse(text, file);
    Optional<CrawlConfiguration> inForce = ConfigCommand.inForce(kafka, topics);
    if (inForce.isPresent() && inForce.get().getVersion().equals(config.version())) {
      return Optional.empty();
    }
    if (inForce.isEmpty()) {
      applied.complete(null);
    }
    return Optional.of(
        ConfigCommand.apply(kafka, topics, text, config, file, "crawler crawl --config"));
  }
}
