package dev.crawler.committer.streams;

import dev.crawler.committer.domain.ChunkEvents;
import dev.crawler.committer.domain.Commit;
import dev.crawler.committer.domain.CommitPolicy;
import dev.crawler.committer.domain.CommitterSettings;
import dev.crawler.committer.domain.PageAssembly;
import dev.crawler.committer.state.DocumentState;
import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.decision.Decision;
import dev.crawler.common.ops.CrawlMetrics;
import dev.crawler.common.streams.QuietCommit;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.DocumentEventType;
import dev.crawler.events.DocumentPages;
import dev.crawler.events.Outcome;
import dev.crawler.events.ParsedDocument;
import dev.crawler.schemas.options.RequestOptions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
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
 * DocumentState} in the store {@value CommitterTopology#DOCUMENTS_STORE}, and writes what it
 * decided. Decisions are timed by the task's wall clock ({@link
 * ProcessorContext#currentSystemTimeMs()}), so tests run in virtual time. One instance per task;
 * not thread-safe (Streams does not need it to be).
 */
final class CommitterProcessor
    implements Processor<String, SpecificRecord, String, SpecificRecord> {

  static final String SERVICE = CommitPolicy.SERVICE;

  private final CrawlLog log;

  private final CommitterSettings settings;
  private @Nullable ProcessorContext<String, SpecificRecord> context;
  private QuietCommit quiet = QuietCommit.NEVER;
  private @Nullable KeyValueStore<String, DocumentState> documents;
  private @Nullable KeyValueStore<String, String> checksums;
  private @Nullable KeyValueStore<String, String> globalChecksums;
  private @Nullable KeyValueStore<String, DocumentPages> pages;
  private @Nullable KeyValueStore<String, String> pageOf;

  CommitterProcessor(CommitterSettings settings, CrawlLog log) {
    this.settings = settings;
    this.log = log;
  }

  @Override
  public void init(ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    this.quiet = QuietCommit.of(context);
    this.documents = context.getStateStore(CommitterTopology.DOCUMENTS_STORE);
    this.checksums = context.getStateStore(CommitterTopology.CHECKSUMS_STORE);
    this.globalChecksums = context.getStateStore(CommitterTopology.GLOBAL_CHECKSUMS_STORE);
    this.pages = context.getStateStore(CommitterTopology.PAGES_STORE);
    this.pageOf = context.getStateStore(CommitterTopology.PAGE_OF_STORE);
  }

  @Override
  public void process(Record<String, SpecificRecord> record) {
    quiet.processed();
    Instant now = Instant.ofEpochMilli(context().currentSystemTimeMs());
    if (record.value() instanceof ParsedDocument parsed) {
      boolean isPaginated = isPaginated(parsed);
      Optional<Paged> paged = isPaginated ? pagedOf(parsed.getUrl()) : Optional.empty();
      if (paged.isPresent() || (isPaginated && parsed.getNextPage() != null)) {
        onPage(record.key(), parsed, paged, now);
        return;
      }
      Optional<String> duplicateOf =
          settings.detectsDuplicates()
              ? publisherOf(parsed.getContentChecksum())
              : Optional.empty();
      DocumentState previous = store().get(parsed.getUrl());
      Commit commit = CommitPolicy.decide(previous, parsed, duplicateOf, now);
      apply(parsed.getUrl(), previous, commit, parsed.getOptions(), now);
      report(record.key(), parsed, decision(parsed.getUrl(), commit), now);
    } else if (record.value() instanceof CrawlOutcome outcome) {
      if (outcome.getOutcome() == Outcome.UNMODIFIED && !SERVICE.equals(outcome.getService())) {
        Optional<Paged> paged = pagedOf(outcome.getUrl());
        if (paged.isPresent()) {
          onUnmodifiedPage(record.key(), outcome, paged.get(), now);
          return;
        }
      }
      // the fetch already ended the request: a deletion is logged, but no second outcome is written
      DocumentState previous = store().get(outcome.getUrl());
      CommitPolicy.onFetchOutcome(previous, outcome, settings, now)
          .ifPresent(
              commit -> {
                apply(outcome.getUrl(), previous, commit, Map.of(), now);
                Decision decision =
                    decision(outcome.getUrl(), commit).withDepth(outcome.getDepth());
                forward(
                    CommitterTopology.LOG_SINK,
                    record.key(),
                    log.entry(
                        outcome.getStatus() == null
                            ? decision
                            : decision.withStatus(outcome.getStatus()),
                        now),
                    now);
              });
    }
  }

  /**
   * A multi-page document: its URL (its first page's) and its pages so far (null when they are
   * gone).
   */
  private record Paged(String url, @Nullable DocumentPages state) {}

  /** Whether the option that turns multi-page documents on is set for the page's URL. */
  private static boolean isPaginated(ParsedDocument parsed) {
    // off: no store lookups on the common path
    return !RequestOptions.PAGINATION.readFrom(parsed.getOptions()).isEmpty();
  }

  /**
   * The multi-page document a URL is a later page of, or the one it is the first page of; empty
   * when neither.
   */
  private Optional<Paged> pagedOf(String url) {
    String documentUrl = pageOf().get(url);
    if (documentUrl != null) {
      return Optional.of(new Paged(documentUrl, pages().get(documentUrl)));
    }
    DocumentPages own = pages().get(url);
    return own == null ? Optional.empty() : Optional.of(new Paged(url, own));
  }

  /**
   * A page of a multi-page document: its text joins the document's pages; when the pass is complete
   * the assembled document is decided. The page's request gets the document's decision then, else
   * {@code PAGE}.
   */
  private void onPage(
      @Nullable String key, ParsedDocument parsed, Optional<Paged> paged, Instant now) {
    boolean isLaterPage = paged.isPresent() && !paged.get().url().equals(parsed.getUrl());
    String documentUrl = isLaterPage ? paged.get().url() : parsed.getUrl();
    DocumentPages state = paged.map(Paged::state).orElse(null);
    Optional<PageAssembly.Step> step;
    if (isLaterPage) {
      step = state == null ? Optional.empty() : PageAssembly.page(state, parsed, now);
    } else {
      step = Optional.of(PageAssembly.first(state, parsed, now));
    }
    Decision decision;
    if (step.isEmpty()) {
      // indexed to a document that no longer has it: a page of its own again
      pageOf().delete(parsed.getUrl());
      decision = Decision.of(parsed.getUrl(), Outcome.PAGE, "no longer a page of " + documentUrl);
    } else {
      // the request was for this page: its outcome names
      // the page, and says what became of the document
      String prefix = isLaterPage ? documentUrl + ": " : "";
      decision =
          stepped(key, documentUrl, step.get(), now)
              .map(
                  made ->
                      Decision.of(
                          parsed.getUrl(), made.outcome(), prefix + made.detail().orElse("")))
              .orElse(
                  Decision.of(parsed.getUrl(), Outcome.PAGE, pageDetail(documentUrl, step.get())));
    }
    report(key, parsed, decision, now);
  }

  /** Writes the outcome of the parsed page's request and its log entry. */
  private void report(@Nullable String key, ParsedDocument parsed, Decision decision, Instant now) {
    Decision made =
        decision
            .withRequest(parsed.getRequestId(), parsed.getDepth(), parsed.getAttempt())
            .withStatus(parsed.getStatus());
    CrawlOutcome outcome =
        made.toOutcome(SERVICE, now)
            .setContentChecksum(parsed.getContentChecksum())
            .setEtag(parsed.getEtag())
            .setLastModified(parsed.getLastModified())
            .build();
    forward(CommitterTopology.OUTCOMES_SINK, key, outcome, now);
    forward(CommitterTopology.LOG_SINK, key, log.entry(made, now, parsed.getOptions()), now);
  }

  /**
   * A page answered 304: it counts for the pass with the text it had; the fetch already ended its
   * request.
   */
  private void onUnmodifiedPage(
      @Nullable String key, CrawlOutcome outcome, Paged paged, Instant now) {
    if (paged.state() == null) {
      return;
    }
    PageAssembly.unmodified(paged.state(), outcome.getUrl(), now)
        .flatMap(step -> stepped(key, paged.url(), step, now))
        .ifPresent(
            decision ->
                forward(
                    CommitterTopology.LOG_SINK,
                    key,
                    log.entry(decision.withDepth(outcome.getDepth()), now),
                    now));
  }

  /**
   * Stores a step of a multi-page document, indexes its pages (a page that joins it and was
   * published on its own is withdrawn), and decides the assembled document when the step completed
   * it.
   *
   * @return the document's decision, when it was made
   */
  private Optional<Decision> stepped(
      @Nullable String key, String documentUrl, PageAssembly.Step step, Instant now) {
    pages().put(documentUrl, step.state());
    step.left().forEach(pageOf()::delete);
    for (String joined : step.joined()) {
      pageOf().put(joined, documentUrl);
      DocumentState standalone = store().get(joined);
      CommitPolicy.absorbed(standalone, joined, documentUrl, now)
          .ifPresent(
              commit -> {
                apply(joined, standalone, commit, Map.of(), now);
                forward(
                    CommitterTopology.LOG_SINK, key, log.entry(decision(joined, commit), now), now);
              });
    }
    if (step.assembled().isEmpty()) {
      return Optional.empty();
    }
    ParsedDocument assembled = step.assembled().get();
    Optional<String> duplicateOf =
        settings.detectsDuplicates()
            ? publisherOf(assembled.getContentChecksum())
            : Optional.empty();
    DocumentState previous = store().get(documentUrl);
    Commit commit = CommitPolicy.decide(previous, assembled, duplicateOf, now);
    apply(documentUrl, previous, commit, assembled.getOptions(), now);
    return Optional.of(
        Decision.of(
            documentUrl,
            commit.outcome(),
            commit.detail().orElse("") + " (" + step.pageCount() + " pages)"));
  }

  private static String pageDetail(String documentUrl, PageAssembly.Step step) {
    return "page "
        + (step.index() + 1)
        + " of "
        + documentUrl
        + " ("
        + step.pageCount()
        + " pages so far)";
  }

  /**
   * Stores the URL's new state and publishes what the commit decided: the document event, and the
   * chunks of an upserted document (option {@code chunk-max-chars}) or the deletion of those of a
   * document that changed or went.
   */
  private void apply(
      String url,
      @Nullable DocumentState previous,
      Commit commit,
      Map<String, String> options,
      Instant now) {
    chunks(url, previous, commit, options, now);
    store().put(url, commit.state());
    indexChecksum(url, previous, commit.state());
    commit
        .event()
        .ifPresent(
            event -> {
              forward(CommitterTopology.DOCUMENTS_SINK, url, event, now);
              CrawlMetrics.document(event);
            });
    if (commit.isTombstoneFollowing()) {
      context()
          .forward(
              new Record<String, SpecificRecord>(url, null, now.toEpochMilli()),
              CommitterTopology.DOCUMENTS_SINK);
    }
  }

  private void chunks(
      String url,
      @Nullable DocumentState previous,
      Commit commit,
      Map<String, String> options,
      Instant now) {
    List<String> before = previous == null ? List.of() : previous.getChunkIds();
    Optional<DocumentEvent> event = commit.event();
    ChunkEvents.Result result;
    if (event.isPresent() && event.get().getType() == DocumentEventType.UPSERT) {
      result =
          ChunkEvents.upserted(
              url,
              Objects.requireNonNull(event.get().getDocument()),
              before,
              RequestOptions.CHUNK_MAX_CHARS.readFrom(options),
              now);
    } else if (event.isPresent() && !before.isEmpty()) {
      result = ChunkEvents.deleted(url, before, now);
    } else {
      return; // nothing published or withdrawn: the chunks stand as they are
    }
    commit.state().setChunkIds(result.ids());
    for (ChunkEvents.Out out : result.out()) {
      context()
          .forward(
              new Record<String, SpecificRecord>(out.id(), out.event(), now.toEpochMilli()),
              CommitterTopology.CHUNKS_SINK);
    }
  }

  /**
   * The URL that publishes this content, if any: this partition's index first (up to date), then
   * the global one (every partition's, updated a moment later through crawl.checksums; two copies
   * committed in that moment on two partitions are both published until the next recrawl finds one
   * a duplicate).
   */
  private Optional<String> publisherOf(String checksum) {
    String local = checksums().get(checksum);
    return local != null
        ? Optional.of(local)
        : Optional.ofNullable(globalChecksums().get(checksum));
  }

  /**
   * Keeps the checksum index: a published document owns its checksum unless another URL owned it
   * first.
   */
  private void indexChecksum(String url, @Nullable DocumentState previous, DocumentState state) {
    Instant now = Instant.ofEpochMilli(context().currentSystemTimeMs());
    if (previous != null && previous.getPublished() && !previous.getContentChecksum().isEmpty()) {
      boolean isGoneOrChanged =
          !state.getPublished()
              || !state.getContentChecksum().equals(previous.getContentChecksum());
      if (isGoneOrChanged && url.equals(checksums().get(previous.getContentChecksum()))) {
        checksums().delete(previous.getContentChecksum());
        context()
            .forward(
                new Record<String, SpecificRecord>(
                    previous.getContentChecksum(), null, now.toEpochMilli()),
                CommitterTopology.CHECKSUMS_SINK);
      }
    }
    if (state.getPublished()
        && !state.getContentChecksum().isEmpty()
        && checksums().get(state.getContentChecksum()) == null) {
      checksums().put(state.getContentChecksum(), url);
      forwardChecksum(state.getContentChecksum(), url, now);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void forwardChecksum(String checksum, String url, Instant now) {
    // the sink's serde is a string's: the record is not an Avro one
    ((ProcessorContext) context())
        .forward(new Record<>(checksum, url, now.toEpochMilli()), CommitterTopology.CHECKSUMS_SINK);
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

  private KeyValueStore<String, DocumentPages> pages() {
    return Objects.requireNonNull(pages, "not initialized");
  }

  private KeyValueStore<String, String> pageOf() {
    return Objects.requireNonNull(pageOf, "not initialized");
  }

  private KeyValueStore<String, DocumentState> store() {
    return Objects.requireNonNull(documents, "not initialized");
  }
}
