package dev.crawler.common.streams;

import dev.crawler.common.HeadStart;
import dev.crawler.common.RunningService;
import dev.crawler.common.ops.HealthCheck;
import dev.crawler.common.ops.KafkaConnection;
import dev.crawler.common.recovery.ProgressWatch;
import dev.crawler.common.recovery.TransactionRecovery;
import dev.crawler.common.recovery.Watchdog;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka Streams service running: one {@link KafkaStreams} instance over a topology, and a
 * watchdog beside it.
 *
 * <p>A stream thread that dies of an unexpected error is replaced, so one bad moment does not stop
 * the service (records that fail are already sent to the dead-letter topic by {@link
 * DeadLetterHandler}); under static membership its member then leaves the group, so that its tasks
 * move at once ({@link ReplacedThreadMembers}). The watchdog aborts the hanging transactions it
 * finds on the topics the instance reads and writes, its changelogs included ({@link
 * TransactionRecovery}: after a broker's crash one can hold a restoration, and with it the whole
 * service, for good), and watches the instance's progress: one that has work and makes none for
 * {@code liveness.stall.timeout.ms} is not alive any more ({@link #livenessProblem()}), so that
 * Kubernetes restarts it; nor is one whose stream threads keep failing ({@link
 * ThreadReplacements}).
 */
public final class StreamsService implements RunningService {

  private static final Logger LOG = LoggerFactory.getLogger(StreamsService.class);

  /** How long closing waits for in-flight transactions to commit. */
  public static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

  /** How often the watchdog looks at the instance's progress and for hanging transactions. */
  private static final Duration WATCH_INTERVAL = Duration.ofSeconds(5);

  private final String name;
  private final KafkaStreams streams;
  private final ProgressWatch progress;
  private final InstantSource clock = InstantSource.system();
  private final Admin admin;
  private final Watchdog watchdog;

  /** Whether the last watch found the instance stalled (the watchdog's thread only). */
  private boolean stalled;

  /** Stream threads replaced after a failure, and why the last one failed. */
  private final ThreadReplacements replacements;

  /** Takes the members of replaced threads out of the group. */
  private final ReplacedThreadMembers replacedMembers;

  private StreamsService(
      StreamsServiceConfig config,
      KafkaStreams streams,
      Admin admin,
      Set<String> topologyTopics,
      ThreadReplacements replacements,
      ReplacedThreadMembers replacedMembers) {
    this.name = config.serviceName();
    this.streams = streams;
    this.replacements = replacements;
    this.replacedMembers = replacedMembers;
    this.progress = new ProgressWatch(config.stallTimeout());
    this.admin = admin;
    String internalPrefix = config.getString(StreamsServiceConfig.APPLICATION_ID_CONFIG) + "-";
    TransactionRecovery recovery =
        new TransactionRecovery(
            name,
            admin,
            () -> watchedTopics(topologyTopics, internalPrefix),
            config.abortsHangingTransactions(),
            clock,
            Duration.ofSeconds(5));
    this.watchdog =
        Watchdog.start(
            name + "-watchdog",
            WATCH_INTERVAL,
            () -> {
              watchProgress();
              recovery.pass();
            });
  }

  /**
   * Starts the topology with the service's settings; returns at once (the instance joins its group
   * in the background).
   */
  public static StreamsService start(StreamsServiceConfig config, Topology topology) {
    return start(config, topology, () -> {});
  }

  /**
   * {@link #start(StreamsServiceConfig, Topology)}, running {@code beforeStart} once the instance
   * is built and its changelogs are being made, just before it joins its group: what the topology
   * must know before its first record (the frontier's configuration in force) is read there while
   * the rest of the start has gone ahead.
   *
   * @param beforeStart an exception it throws stops the start, and is thrown
   */
  public static StreamsService start(
      StreamsServiceConfig config, Topology topology, Runnable beforeStart) {
    String name = config.serviceName();
    TopologyDescription description = topology.describe();
    Set<String> topologyTopics = topicsOf(description);
    StreamsConfig streamsConfig = new StreamsConfig(config.streamsProperties());
    KafkaStreams streams =
        new KafkaStreams(topology, streamsConfig, StreamTransactions.clientSupplier());
    streams.setGlobalStateRestoreListener(new RestoreLog(name));
    Admin admin = Admin.create(config.adminProperties());
    if (hasStores(description)) {
      // linked while the instance joins its group, not when its first task opens a store
      HeadStart.run(name + "-state-store-library", StateStores::loadLibrary);
    }
    if (!Changelogs.sourceTopics(description).isEmpty()) {
      // made while the instance joins its group: the group's leader finds them when it assigns
      HeadStart.run(
          name + "-changelogs", () -> Changelogs.create(admin, description, streamsConfig));
    }
    ThreadReplacements replacements = new ThreadReplacements(InstantSource.system());
    ReplacedThreadMembers replacedMembers =
        new ReplacedThreadMembers(
            name,
            admin,
            config.getString(StreamsServiceConfig.APPLICATION_ID_CONFIG),
            config.getString(StreamsServiceConfig.INSTANCE_ID_CONFIG).strip(),
            () ->
                streams.metadataForLocalThreads().stream()
                    .map(ThreadMetadata::threadName)
                    .collect(Collectors.toSet()));
    streams.setUncaughtExceptionHandler(
        error -> {
          LOG.error("{}: stream thread failed, replacing it", name, error);
          replacements.replaced(error);
          replacedMembers.replacing(Thread.currentThread());
          return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
    try {
      beforeStart.run();
      streams.start();
    } catch (RuntimeException e) {
      streams.close(Duration.ZERO);
      replacedMembers.close();
      admin.close(Duration.ZERO);
      throw e;
    }
    LOG.info("{} started: {}", name, description.subtopologies().size() + " sub-topologies");
    return new StreamsService(
        config, streams, admin, topologyTopics, replacements, replacedMembers);
  }

  /** The topics a topology reads (its global stores' included) and writes. */
  static Set<String> topicsOf(TopologyDescription description) {
    Set<String> topics = new TreeSet<>();
    for (TopologyDescription.Subtopology subtopology : description.subtopologies()) {
      for (TopologyDescription.Node node : subtopology.nodes()) {
        addTopics(node, topics);
      }
    }
    for (TopologyDescription.GlobalStore store : description.globalStores()) {
      topics.addAll(store.source().topicSet());
    }
    return topics;
  }

  private static void addTopics(TopologyDescription.Node node, Set<String> topics) {
    addSourceTopics(node, topics);
    if (node instanceof TopologyDescription.Sink sink && sink.topic() != null) {
      topics.add(sink.topic());
    }
  }

  /** Adds the topics the node reads, when it is a source of named topics. */
  static void addSourceTopics(TopologyDescription.Node node, Set<String> topics) {
    if (node instanceof TopologyDescription.Source source && source.topicSet() != null) {
      topics.addAll(source.topicSet());
    }
  }

  /** The topology's topics and the instance's internal ones (changelogs, repartition topics). */
  private Set<String> watchedTopics(Set<String> topologyTopics, String internalPrefix) {
    Set<String> topics = new TreeSet<>(topologyTopics);
    try {
      for (String topic : admin.listTopics().names().get(5, TimeUnit.SECONDS)) {
        if (topic.startsWith(internalPrefix)) {
          topics.add(topic);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // the topology's own topics are watched this time
    }
    return topics;
  }

  private void watchProgress() {
    var metrics = streams.metrics();
    progress.observe(
        StreamsProgress.progress(metrics),
        StreamsProgress.work(streams.state(), metrics, streams.metadataForLocalThreads()),
        clock.instant());
    Optional<String> stall = progress.stall(clock.instant());
    if (stall.isPresent() && !stalled) {
      LOG.error("{}: {}: /health/live fails from now on", name, stall.get());
    } else if (stall.isEmpty() && stalled) {
      LOG.info("{}: progressing again", name);
    }
    stalled = stall.isPresent();
  }

  /** The running instance, for interactive queries of its stores. */
  public KafkaStreams streams() {
    return streams;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public boolean isRunning() {
    KafkaStreams.State state = streams.state();
    return state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING;
  }

  /**
   * Not alive once Kafka Streams failed for good, or when the instance has had work and made no
   * progress for longer than its bound.
   */
  @Override
  public Optional<String> livenessProblem() {
    KafkaStreams.State state = streams.state();
    if (state == KafkaStreams.State.ERROR
        || state == KafkaStreams.State.PENDING_ERROR
        || state == KafkaStreams.State.NOT_RUNNING) {
      return Optional.of("Kafka Streams is " + state);
    }
    Optional<String> failing = replacements.problem();
    return failing.isPresent() ? failing : progress.stall(clock.instant());
  }

  /**
   * Ready when Kafka Streams is RUNNING (not starting, restoring or rebalancing) and connected to
   * Kafka.
   */
  @Override
  public List<HealthCheck> readinessChecks() {
    return List.of(
        new HealthCheck(
            "streams",
            () ->
                streams.state() == KafkaStreams.State.RUNNING
                    ? Optional.empty()
                    : Optional.of("Kafka Streams is " + streams.state())),
        KafkaConnection.check(streams::metrics));
  }

  /**
   * Every metric of Kafka Streams and its clients: consumer lag ({@code
   * kafka_consumer_fetch_manager_records_lag_max}), process rates, commit latency.
   */
  @Override
  @SuppressWarnings("resource") // bound for the life of the instance
  public void bindMetrics(MeterRegistry registry) {
    new KafkaStreamsMetrics(streams).bindTo(registry);
  }

  @Override
  public void close() {
    watchdog.close();
    // leave the group now: the partitions go to the other instances, or to the next start of this
    // one, without waiting for the session timeout to notice this member is gone
    streams.close(
        CloseOptions.timeout(CLOSE_TIMEOUT)
            .withGroupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
    replacedMembers.close();
    admin.close(Duration.ofSeconds(5));
    LOG.info("{} stopped", name);
  }

  /** Whether the topology keeps state: a store of a processor's, or a global one. */
  private static boolean hasStores(TopologyDescription description) {
    return !description.globalStores().isEmpty()
        || description.subtopologies().stream()
            .flatMap(subtopology -> subtopology.nodes().stream())
            .anyMatch(
                node ->
                    node instanceof TopologyDescription.Processor processor
                        && !processor.stores().isEmpty());
  }
}
