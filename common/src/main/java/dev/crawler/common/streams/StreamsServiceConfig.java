package dev.crawler.common.streams;

import dev.crawler.common.config.ProducerBatching;
import dev.crawler.common.config.ServiceConfig;
import dev.crawler.schemas.TopicSpec;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.jspecify.annotations.Nullable;

/**
 * The settings of a Kafka Streams service: those of {@link ServiceConfig} plus the application id,
 * the state directory and the number of stream threads. Processing is always exactly-once ({@code
 * exactly_once_v2}): a URL's state and the records it causes are committed together.
 */
public abstract class StreamsServiceConfig extends ServiceConfig {

  public static final String APPLICATION_ID_CONFIG = "application.id";
  private static final String APPLICATION_ID_DOC =
      "The Kafka Streams application id: the consumer group, and the prefix of the internal topics. Instances with one id share the work.";

  public static final String STATE_DIR_CONFIG = "state.dir";
  private static final String STATE_DIR_DOC =
      "Where the state stores live on local disk (a persistent volume on Kubernetes).";

  public static final String STREAM_THREADS_CONFIG = "stream.threads";
  private static final String STREAM_THREADS_DOC =
      "Stream threads in this instance; each processes some of the partitions.";

  public static final String COMMIT_INTERVAL_MS_CONFIG = "commit.interval.ms";
  private static final String COMMIT_INTERVAL_MS_DOC =
      "How often a busy stream thread commits its transaction, in milliseconds: the latency each hop through this service adds while"
          + " the crawl is busy (a lightly loaded thread commits once its input pauses, commit.quiet.ms). Each commit costs the broker a"
          + " transaction (markers on every partition written); at 100 ms the broker spent three times the CPU it does at 500.";

  /**
   * The default commit interval: half a second per hop, a fifth of the transactions of Kafka
   * Streams' exactly-once default.
   */
  public static final long DEFAULT_COMMIT_INTERVAL_MS = 500;

  public static final String COMMIT_QUIET_MS_CONFIG = "commit.quiet.ms";
  private static final String COMMIT_QUIET_MS_DOC =
      "How long a stream thread's input must pause after an isolated burst before the thread commits it without waiting for"
          + " commit.interval.ms, in milliseconds: the last pages of a crawl, and every page of a slow one, reach the next hop that"
          + " much sooner. A burst is isolated when it is at most 100 records after a pause of at least half the commit interval; a busy"
          + " thread's input never pauses that long, and it commits at the interval. 0 (the default) commits at the interval only:"
          + " on a fast crawl the early commits cost more throughput than they save time (docs/benchmarks.md). The command crawler crawl"
          + " commits sooner on its own once the frontier has nothing left to release, whatever this says.";

  /**
   * The default quiet time before a commit: none, commits at the interval only. At 50 ms,
   * alternated crawls of the docs bench site went 3-9 % slower (the frontier's and committer's
   * input brings isolated bursts often enough mid-crawl), for 0.3-0.4 s less at the crawl's end: a
   * trade for a slow crawl whose pages should reach downstream sooner, not for a fast one.
   */
  public static final long DEFAULT_COMMIT_QUIET_MS = 0;

  public static final String STATE_MEMORY_MB_CONFIG = "state.memory.mb";
  private static final String STATE_MEMORY_MB_DOC =
      "Native memory all the RocksDB state stores of this process share, in MB: one block cache, with the memtables charged to it."
          + " It bounds memory however many URLs the stores hold and however many partitions the instance owns; a larger cache reads less from disk.";

  /** The default bound of the state stores' native memory, in MB. */
  public static final long DEFAULT_STATE_MEMORY_MB = 128;

  public static final String INSTANCE_ID_CONFIG = "instance.id";
  private static final String INSTANCE_ID_DOC =
      "This instance's stable name in its consumer group (static membership, Kafka's group.instance.id): a process that comes back under"
          + " the same name within session.timeout.ms (a restarted StatefulSet pod, with its state directory) takes its tasks back at once,"
          + " with no rebalance and no state to restore. Empty: a member without a name, whose restart after a crash waits for the session"
          + " timeout. Two running instances must never share a name. On Kubernetes, the pod name.";

  public static final String TRANSACTION_TIMEOUT_MS_CONFIG = "transaction.timeout.ms";
  private static final String TRANSACTION_TIMEOUT_MS_DOC =
      "How long an open transaction of an instance that died holds back the readers of what it wrote, in milliseconds, when no restart"
          + " fences it: a service with state stores restarts under the same transactional id (kept in its state directory) and aborts its"
          + " old transaction at once; a stateless one (the parser) gets a new id, so its old transaction ends only by this timeout, plus up to"
          + " the broker's transaction.abort.timed.out.transaction.cleanup.interval.ms (10000 in Kafka; 1000 in the embedded broker). Every"
          + " transaction (one commit interval of processing, or one operator command such as a recrawl of every URL) must end within it.";

  /**
   * The transaction timeout of a service without state stores: short, because no restart fences its
   * transactions.
   */
  public static final int STATELESS_TRANSACTION_TIMEOUT_MS = 5_000;

  /**
   * The transaction timeout of a service with state stores (Kafka Streams' own default under
   * exactly-once).
   */
  public static final int STATEFUL_TRANSACTION_TIMEOUT_MS = 10_000;

  public static final String STANDBY_REPLICAS_CONFIG = "standby.replicas";
  private static final String STANDBY_REPLICAS_DOC =
      "Warm copies of each state store kept by other instances, so a task moves to another instance without restoring its state from the changelog.";

  public static final String ABORT_HANGING_TRANSACTIONS_CONFIG = "transactions.abort.hanging";
  private static final String ABORT_HANGING_TRANSACTIONS_DOC =
      "Whether the service aborts a hanging transaction it finds on a topic it reads or writes: a transaction its coordinator will never"
          + " end (after a broker's crash, a coordinator can complete an abort without writing the marker of a partition that had no leader"
          + " at that moment), which holds every read_committed reader of the partition at its first offset for good. The service checks"
          + " every 5 s, and aborts only a transaction open longer than its producer's transaction timeout that its coordinator no"
          + " longer lists, as Kafka's kafka-transactions.sh find-hanging and abort do. Aborting needs ALTER (or CLUSTER_ACTION) on the"
          + " cluster; without it, or when false, the service logs an error with the command that aborts it.";

  public static final String STALL_TIMEOUT_MS_CONFIG = "liveness.stall.timeout.ms";
  private static final String STALL_TIMEOUT_MS_DOC =
      "How long the service may make no progress while it has work, in milliseconds, before /health/live fails so that Kubernetes"
          + " restarts it: work is records behind on a partition it processes, or a rebalance or restoration under way; progress is"
          + " records processed, restored or consumed. An idle service, or one cut off from every broker (which a restart would not"
          + " mend), is never stalled. It bounds what no mechanism of the service recovers by itself (a stream thread stuck in a"
          + " rebalance, a task that is never restored).";

  /** The default bound of a standstill with work pending. */
  public static final long DEFAULT_STALL_TIMEOUT_MS = 120_000;

  /**
   * Whether the process's crawl drains, when the process knows; see {@link #commitWhileDraining}.
   */
  private @Nullable BooleanSupplier draining;

  protected StreamsServiceConfig(ConfigDef definition, Map<String, String> settings) {
    super(definition, settings);
  }

  /**
   * Lets a process that runs the whole crawl tell this service when the crawl drains (the frontier
   * has nothing left to release, only pages in flight): its stream threads then commit what they
   * hold as soon as their input pauses ({@link QuietCommit}), so the crawl's last pages reach the
   * next hop without waiting out {@code commit.interval.ms} at each. Not a setting: a deployed
   * service cannot know, and commits at the interval. Called before the service starts.
   */
  public void commitWhileDraining(BooleanSupplier draining) {
    this.draining = draining;
  }

  /**
   * The base settings plus the Streams ones, with the service's default application id, for a
   * service with state stores.
   */
  public static ConfigDef streamsDefinition(String defaultApplicationId) {
    return streamsDefinition(defaultApplicationId, STATEFUL_TRANSACTION_TIMEOUT_MS);
  }

  /**
   * The base settings plus the Streams ones, with the service's default application id and
   * transaction timeout.
   */
  public static ConfigDef streamsDefinition(
      String defaultApplicationId, int defaultTransactionTimeoutMs) {
    return baseDefinition()
        .define(
            APPLICATION_ID_CONFIG,
            Type.STRING,
            defaultApplicationId,
            new ConfigDef.NonEmptyString(),
            Importance.HIGH,
            APPLICATION_ID_DOC)
        .define(
            STATE_DIR_CONFIG,
            Type.STRING,
            "./state",
            new ConfigDef.NonEmptyString(),
            Importance.HIGH,
            STATE_DIR_DOC)
        .define(
            STREAM_THREADS_CONFIG,
            Type.INT,
            1,
            Range.between(1, 64),
            Importance.MEDIUM,
            STREAM_THREADS_DOC)
        .define(
            COMMIT_INTERVAL_MS_CONFIG,
            Type.LONG,
            DEFAULT_COMMIT_INTERVAL_MS,
            Range.between(10, 60_000),
            Importance.LOW,
            COMMIT_INTERVAL_MS_DOC)
        .define(
            COMMIT_QUIET_MS_CONFIG,
            Type.LONG,
            DEFAULT_COMMIT_QUIET_MS,
            Range.between(0, 60_000),
            Importance.LOW,
            COMMIT_QUIET_MS_DOC)
        .define(INSTANCE_ID_CONFIG, Type.STRING, "", Importance.MEDIUM, INSTANCE_ID_DOC)
        .define(
            TRANSACTION_TIMEOUT_MS_CONFIG,
            Type.INT,
            defaultTransactionTimeoutMs,
            Range.between(1_000, 900_000),
            Importance.LOW,
            TRANSACTION_TIMEOUT_MS_DOC)
        .define(
            STANDBY_REPLICAS_CONFIG,
            Type.INT,
            0,
            Range.between(0, 10),
            Importance.MEDIUM,
            STANDBY_REPLICAS_DOC)
        .define(
            ABORT_HANGING_TRANSACTIONS_CONFIG,
            Type.BOOLEAN,
            true,
            Importance.LOW,
            ABORT_HANGING_TRANSACTIONS_DOC)
        .define(
            STALL_TIMEOUT_MS_CONFIG,
            Type.LONG,
            DEFAULT_STALL_TIMEOUT_MS,
            Range.between(5_000, 24L * 3_600_000),
            Importance.MEDIUM,
            STALL_TIMEOUT_MS_DOC)
        .define(
            STATE_MEMORY_MB_CONFIG,
            Type.LONG,
            DEFAULT_STATE_MEMORY_MB,
            Range.between(16, 1024 * 1024),
            Importance.MEDIUM,
            STATE_MEMORY_MB_DOC);
  }

  /** How long the service may have work and make no progress before it is not alive. */
  public Duration stallTimeout() {
    return Duration.ofMillis(getLong(STALL_TIMEOUT_MS_CONFIG));
  }

  /** Whether the service aborts the hanging transactions it finds. */
  public boolean abortsHangingTransactions() {
    return getBoolean(ABORT_HANGING_TRANSACTIONS_CONFIG);
  }

  /** The service's name in crawl-log entries and dead letters. */
  public abstract String serviceName();

  /**
   * Records a task holds per input partition before it stops fetching more, for a service whose
   * records are pages (fetch results, parsed documents: tens of kilobytes each, up to megabytes),
   * instead of Kafka Streams' 1,000: a parser behind the fetchers held up to 1,000 pages per
   * partition in its heap, which grew the crawl's resident set; 100 pages are still seconds of
   * work. Set with {@link #boundPageBuffers}; a {@code kafka.buffered.records.per.partition}
   * setting wins.
   */
  protected static final int PAGE_RECORDS_BUFFERED_PER_PARTITION = 100;

  /**
   * How long the restore consumer's fetch waits for records that are not there, instead of Kafka's
   * 500 ms: a task whose changelogs are restored to their end waited out one such fetch before it
   * was handed back to run, so a starting frontier, its tasks restored one after another, became
   * ready about half a second per task later than it could. A restore with records to read is not
   * slowed: a fetch with records returns at once. A {@code kafka.fetch.max.wait.ms}, {@code
   * kafka.consumer.…} or {@code kafka.restore.consumer.…} setting wins.
   */
  static final int RESTORE_FETCH_MAX_WAIT_MS = 50;

  /**
   * How long the global store's consumer's fetch waits for records that are not there, instead of
   * Kafka's 500 ms: closing a consumer sends a last fetch to end its fetch session, which the
   * broker holds that long when nothing is new, and a service with a global store (parser,
   * committer) took half a second more to stop for it. Following the store's topic, the consumer
   * fetches ten times a second instead of twice when nothing is written. A {@code
   * kafka.fetch.max.wait.ms}, {@code kafka.consumer.…} or {@code kafka.global.consumer.…} setting
   * wins.
   */
  static final int GLOBAL_FETCH_MAX_WAIT_MS = 100;

  /**
   * How long a stream thread's poll waits for records when none are there, instead of Kafka
   * Streams' 100 ms ({@code poll.ms}). A thread checks whether its commit is due only between two
   * polls, so an idle hop's last records were committed up to a poll later than {@code
   * commit.interval.ms}; and the restoration of a changelog that has nothing to restore waits out
   * one such poll before its task can run. At the end of a crawl, whose last outcome passes the
   * parser and the frontier, the last request to the command's exit went from 2.6–2.9 s to 1.8–2.5
   * s. A thread with records to process does not wait at all; an idle one wakes a hundred times a
   * second instead of ten, and so do the global store's thread and, while it keeps a standby
   * replica up to date, the restoring thread (both poll as long). A {@code kafka.poll.ms} setting
   * wins.
   */
  static final long POLL_MS = 10;

  /**
   * How long Kafka Streams waits after each internal topic it could not create because the topic
   * exists already, instead of {@code retry.backoff.ms}'s 100 ms. A service creates its changelogs
   * while its group forms ({@link Changelogs}); when its group's leader found them not yet known to
   * the broker, asked to create them and was told they exist, it slept 100 ms per changelog (the
   * frontier has seven) before it looked again: 0.5-0.7 s of a crawl's start. The leader makes the
   * topics ready with its main consumer's settings, so the main consumer's own retries (a failed
   * fetch, a coordinator not found) start at 10 ms too, doubling up to {@code retry.backoff.max.ms}
   * (1 s) as before; the other clients keep Kafka's 100 ms. A leader whose internal topic is really
   * being deleted asks the broker ten times as often (the wait does not grow) until it is gone or
   * half of {@code max.poll.interval.ms} has passed. A {@code kafka.retry.backoff.ms} or {@code
   * kafka.consumer.retry.backoff.ms} setting wins.
   */
  static final long INTERNAL_TOPIC_RETRY_BACKOFF_MS = 10;

  /** The properties with {@link #PAGE_RECORDS_BUFFERED_PER_PARTITION}, unless set already. */
  protected static Properties boundPageBuffers(Properties properties) {
    properties.putIfAbsent(
        StreamsConfig.BUFFERED_RECORDS_PER_PARTITION_CONFIG, PAGE_RECORDS_BUFFERED_PER_PARTITION);
    return properties;
  }

  /**
   * The {@code KafkaStreams} properties: exactly-once, the dead-letter handler, and every {@code
   * kafka.*} setting.
   */
  public Properties streamsProperties() {
    Properties properties = new Properties();
    properties.putAll(kafkaProperties());
    properties.put(StreamsConfig.APPLICATION_ID_CONFIG, getString(APPLICATION_ID_CONFIG));
    properties.put(StreamsConfig.STATE_DIR_CONFIG, getString(STATE_DIR_CONFIG));
    properties.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, getInt(STREAM_THREADS_CONFIG));
    properties.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    properties.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, getLong(COMMIT_INTERVAL_MS_CONFIG));
    properties.put(QuietCommit.QUIET_MS_CONFIG, getLong(COMMIT_QUIET_MS_CONFIG));
    if (draining != null) {
      properties.put(QuietCommit.DRAINING_CONFIG, draining);
    }
    properties.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, getInt(STANDBY_REPLICAS_CONFIG));
    properties.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedStateMemory.class);
    properties.put(
        BoundedStateMemory.MEMORY_BYTES_CONFIG, getLong(STATE_MEMORY_MB_CONFIG) * 1024 * 1024);
    ProducerBatching.defaults()
        .forEach(
            (key, value) -> {
              if (!properties.containsKey(key)
                  && !properties.containsKey(StreamsConfig.producerPrefix(key))) {
                properties.put(StreamsConfig.producerPrefix(key), value);
              }
            });
    properties.putIfAbsent(
        StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG),
        TopicSpec.MAX_MESSAGE_BYTES);
    // the changelogs and repartition topics Kafka Streams creates take records as large as the
    // catalogue's topics do (a broker's default is 1 MB: a store's value larger than that, a page's
    // text, was a record no retry could write)
    properties.putIfAbsent(
        StreamsConfig.topicPrefix(TopicConfig.MAX_MESSAGE_BYTES_CONFIG),
        Integer.toString(TopicSpec.MAX_MESSAGE_BYTES));
    if (!properties.containsKey(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG)) {
      properties.putIfAbsent(
          StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG),
          getInt(TRANSACTION_TIMEOUT_MS_CONFIG));
    }
    properties.putIfAbsent(
        StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
    properties.putIfAbsent(StreamsConfig.POLL_MS_CONFIG, POLL_MS);
    if (!properties.containsKey(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG)
        && !properties.containsKey(
            StreamsConfig.consumerPrefix(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG))) {
      // the group's leader makes the internal topics ready with its main consumer's settings
      properties.putIfAbsent(
          StreamsConfig.mainConsumerPrefix(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG),
          INTERNAL_TOPIC_RETRY_BACKOFF_MS);
    }
    if (!properties.containsKey(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG)
        && !properties.containsKey(
            StreamsConfig.consumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG))) {
      properties.putIfAbsent(
          StreamsConfig.restoreConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG),
          RESTORE_FETCH_MAX_WAIT_MS);
      properties.putIfAbsent(
          StreamsConfig.globalConsumerPrefix(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG),
          GLOBAL_FETCH_MAX_WAIT_MS);
    }
    groupLiveness()
        .forEach(
            (key, value) -> {
              if (!properties.containsKey(key)
                  && !properties.containsKey(StreamsConfig.consumerPrefix(key))
                  && !properties.containsKey(StreamsConfig.mainConsumerPrefix(key))) {
                properties.put(StreamsConfig.mainConsumerPrefix(key), value);
              }
            });
    String instanceId = getString(INSTANCE_ID_CONFIG).strip();
    if (!instanceId.isEmpty()) {
      // Kafka Streams names each stream thread's member after it (instance-1, instance-2, …)
      properties.put(
          StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), instanceId);
    }
    DeadLetterHandler.install(properties, topics().deadLetters(), serviceName());
    return properties;
  }
}
