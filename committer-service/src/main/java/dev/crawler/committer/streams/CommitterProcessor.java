package dev.crawler.committer.streams;

import dev.crawler.committer.domain.Commit;
import dev.crawler.committer.domain.CommitPolicy;
import dev.crawler.committer.domain.CommitterSettings;
import dev.crawler.committer.state.DocumentState;
import dev.crawler.common.decision.Decision;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.ParsedDocument;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.jspecify.annotations.Nullable;

/**
 * Applies {@link CommitPolicy} to each parsed document and outcome, keeps each URL's {@link
 * DocumentState} in the store {@value CommitterTopology#DOCUMENTS_STORE}, and writes what it decided.
 * Decisions are timed by the task's wall clock ({@link ProcessorContext#currentSystemTimeMs()}), so
 * tests run in virtual time. One instance per task; not thread-safe (Streams does not need it to be).
 */
final class CommitterProcessor implements Processor<String, SpecificRecord, String, SpecificRecord> {

  static final String SERVICE = CommitPolicy.SERVICE;

  private final CommitterSettings settings;
  private @Nullable ProcessorContext<String, SpecificRecord> context;
  private @Nullable KeyValueStore<String, DocumentState> documents;
  private @Nullable KeyValueStore<String, String> checksums;
  private @Nullable KeyValueStore<String, String> globalChecksums;

  CommitterProcessor(CommitterSettings settings) {
    this.settings = settings;
  }

  @Override
  public void init(ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    this.documents = context.getStateStore(CommitterTopology.DOCUMENTS_STORE);
    this.checksums = context.getStateStore(CommitterTopology.CHECKSUMS_STORE);
    this.globalChecksums = context.getStateStore(CommitterTopology.GLOBAL_CHECKSUMS_STORE);
  }

  @Override
  public void process(Record<String, SpecificRecord> record) {
    Instant now = Instant.ofEpochMilli(context().currentSystemTimeMs());
    if (record.value() instanceof ParsedDocument parsed) {
      Optional<String> duplicateOf = settings.detectsDuplicates() ? publisherOf(parsed.getContentChecksum()) : Optional.empty();
      DocumentState previous = store().get(parsed.getUrl());
      Commit commit = CommitPolicy.decide(previous, parsed, duplicateOf, now);
      apply(parsed.getUrl(), previous, commit, now);
      Decision decision = decision(parsed.getUrl(), commit).withRequest(parsed.getRequestId(), parsed.getDepth(), parsed.getAttempt()).withStatus(parsed.getStatus());
      CrawlOutcome outcome =
          decision.toOutcome(SERVICE, now).setContentChecksum(parsed.getContentChecksum()).setEtag(parsed.getEtag()).setLastModified(parsed.getLastModified()).build();
      forward(CommitterTopology.OUTCOMES_SINK, record.key(), outcome, now);
      forward(CommitterTopology.LOG_SINK, record.key(), decision.toLogEntry(SERVICE, now), now);
    } else if (record.value() instanceof CrawlOutcome outcome) {
      // the fetch already ended the request: a deletion is logged, but no second outcome is written
      DocumentState previous = store().get(outcome.getUrl());
      CommitPolicy.onFetchOutcome(previous, outcome, settings, now)
          .ifPresent(
              commit -> {
                apply(outcome.getUrl(), previous, commit, now);
                Decision decision = decision(outcome.getUrl(), commit).withDepth(outcome.getDepth());
                forward(CommitterTopology.LOG_SINK, record.key(), (outcome.getStatus() == null ? decision : decision.withStatus(outcome.getStatus())).toLogEntry(SERVICE, now), now);
              });
    }
  }

  private void apply(String url, @Nullable DocumentState previous, Commit commit, Instant now) {
    store().put(url, commit.state());
    indexChecksum(url, previous, commit.state());
    commit.event().ifPresent(event -> forward(CommitterTopology.DOCUMENTS_SINK, url, event, now));
    if (commit.isTombstoneFollowing()) {
      context().forward(new Record<String, SpecificRecord>(url, null, now.toEpochMilli()), CommitterTopology.DOCUMENTS_SINK);
    }
  }

  /**
   * The URL that publishes this content, if any: this partition's index first (up to date), then the
   * global one (every partition's, updated a moment later through crawl.checksums; two copies
   * committed in that moment on two partitions are both published until the next recrawl finds one a
   * duplicate).
   */
  private Optional<String> publisherOf(String checksum) {
    String local = checksums().get(checksum);
    return local != null ? Optional.of(local) : Optional.ofNullable(globalChecksums().get(checksum));
  }

  /** Keeps the checksum index: a published document owns its checksum unless another URL owned it first. */
  private void indexChecksum(String url, @Nullable DocumentState previous, DocumentState state) {
    Instant now = Instant.ofEpochMilli(context().currentSystemTimeMs());
    if (previous != null && previous.getPublished() && !previous.getContentChecksum().isEmpty()) {
      boolean isGoneOrChanged = !state.getPublished() || !state.getContentChecksum().equals(previous.getContentChecksum());
      if (isGoneOrChanged && url.equals(checksums().get(previous.getContentChecksum()))) {
        checksums().delete(previous.getContentChecksum());
        context().forward(new Record<String, SpecificRecord>(previous.getContentChecksum(), null, now.toEpochMilli()), CommitterTopology.CHECKSUMS_SINK);
      }
    }
    if (state.getPublished() && !state.getContentChecksum().isEmpty() && checksums().get(state.getContentChecksum()) == null) {
      checksums().put(state.getContentChecksum(), url);
      forwardChecksum(state.getContentChecksum(), url, now);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void forwardChecksum(String checksum, String url, Instant now) {
    // the sink's serde is a string's: the record is not an Avro one
    ((ProcessorContext) context()).forward(new Record<>(checksum, url, now.toEpochMilli()), CommitterTopology.CHECKSUMS_SINK);
  }

  private static Decision decision(String url, Commit commit) {
    return Decision.of(url, commit.outcome(), commit.detail().orElse(null));
  }

  private void forward(String sink, @Nullable String key, SpecificRecord value, Instant now) {
    context().forward(new Record<>(key, value, now.toEpochMilli()), sink);
  }

  private ProcessorContext<String, SpecificRecord> context() {
    return Objects.requireNonNull(context, "not initialized");
  }

  private KeyValueStore<String, String> globalChecksums() {
    return Objects.requireNonNull(globalChecksums, "not initialized");
  }

  private KeyValueStore<String, String> checksums() {
    return Objects.requireNonNull(checksums, "not initialized");
  }

  private KeyValueStore<String, DocumentState> store() {
    return Objects.requireNonNull(documents, "not initialized");
  }
}
