package dev.crawler.committer.domain;

import dev.crawler.committer.state.DocumentState;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DeleteReason;
import dev.crawler.events.Document;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.DocumentEventType;
import dev.crawler.events.Outcome;
import dev.crawler.events.ParsedDocument;
import dev.crawler.events.StructuredData;
import dev.crawler.events.StructuredDataProblem;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Decides what downstream sees of a URL (the commit step): an upsert when the document is new or
 * its content changed; nothing when it is unchanged, noindex or non-canonical; a delete when a
 * published document turns noindex, non-canonical, not found or gone. The permalink (the URL first
 * published under), the first-seen time and the publish date are kept across recrawls; every other
 * field is updated.
 *
 * <p>Pure and stateless: the caller passes the URL's previous state and stores {@link
 * Commit#state()}. The previous state is copied, never modified. Thread-safe.
 */
public final class CommitPolicy {

  /** The name the committer signs its outcomes and log entries with. */
  public static final String SERVICE = "committer";

  private CommitPolicy() {}

  /**
   * The decision about a parsed document, in this order: noindex, then non-canonical (a canonical
   * URL other than the document's own), then unmodified (published with the same content checksum),
   * else committed. A noindex or non-canonical document that is published is deleted.
   *
   * @param previous the URL's state, or null when the committer has not seen the URL
   * @param now when the decision is made: the first-seen time of a new URL and the time of the
   *     events
   */
  public static Commit decide(
      @Nullable DocumentState previous, ParsedDocument parsed, Instant now) {
    return decide(previous, parsed, Optional.empty(), now);
  }

  /**
   * The decision about a parsed document, as {@link #decide(DocumentState, ParsedDocument,
   * Instant)}, and {@code DUPLICATE} when {@code duplicateOf} names another URL published with the
   * same content (REJECTED_DUPLICATE; the first URL keeps the document; a published duplicate is
   * deleted).
   *
   * @param duplicateOf the URL that publishes the parsed content already, when another one does
   */
  public static Commit decide(
      @Nullable DocumentState previous,
      ParsedDocument parsed,
      Optional<String> duplicateOf,
      Instant now) {
    DocumentState state =
        previous != null ? DocumentState.newBuilder(previous).build() : firstSight(now);
    state.setFailures(0); // the URL answered
    boolean isPublished = state.getPublished();
    if (parsed.getNoindex()) {
      return withdrawOrIgnore(
          state,
          parsed.getUrl(),
          Outcome.NOINDEX,
          "robots meta noindex",
          DeleteReason.NOINDEX,
          isPublished,
          now);
    }
    if (isNonCanonical(parsed)) {
      String canonical = Objects.requireNonNull(parsed.getCanonicalUrl());
      return withdrawOrIgnore(
          state,
          parsed.getUrl(),
          Outcome.NONCANONICAL,
          canonical,
          DeleteReason.NONCANONICAL,
          isPublished,
          now);
    }
    if (duplicateOf.isPresent() && !duplicateOf.get().equals(parsed.getUrl())) {
      return withdrawOrIgnore(
          state,
          parsed.getUrl(),
          Outcome.DUPLICATE,
          "same content as " + duplicateOf.get(),
          DeleteReason.DUPLICATE,
          isPublished,
          now);
    }
    Optional<String> refusal = UsageGate.refusal(parsed);
    if (refusal.isPresent()) {
      return withdrawOrIgnore(
          state,
          parsed.getUrl(),
          Outcome.USAGE_REFUSED,
          refusal.get(),
          DeleteReason.USAGE_REFUSED,
          isPublished,
          now);
    }
    if (isUnmodified(state, parsed)) {
      decided(state, Outcome.UNMODIFIED, now);
      return new Commit(
          Outcome.UNMODIFIED,
          Optional.of("content checksum unchanged"),
          state,
          Optional.empty(),
          false);
    }
    String detail =
        state.getVersion() == 0
            ? "new document"
            : isPublished ? "content changed" : "published again";
    long version = state.getVersion() + 1;
    if (state.getPermalink().isEmpty()) {
      state.setPermalink(parsed.getUrl());
    }
    if (state.getPublishedAt() == null) {
      // the publish date is set once: from the page when it states one, else the first sight
      state.setPublishedAt(
          parsed.getPublishedAt() != null ? parsed.getPublishedAt() : state.getFirstSeenAt());
    }
    state.setVersion(version);
    state.setContentChecksum(parsed.getContentChecksum());
    state.setPublished(true);
    decided(state, Outcome.COMMITTED, now);
    DocumentEvent upsert =
        DocumentEvent.newBuilder()
            .setType(DocumentEventType.UPSERT)
            .setUrl(parsed.getUrl())
            .setTime(now)
            .setDocument(document(parsed, state))
            .build();
    return new Commit(
        Outcome.COMMITTED,
        Optional.of(detail + ", version " + version + structuredDataProblems(parsed)),
        state,
        Optional.of(upsert),
        false);
  }

  /**
   * What the crawl log says of the page's structured data that could not be read (a malformed or
   * oversized JSON-LD block, items over the bound): how many problems, and the first; empty when
   * none. The document carries them all.
   */
  static String structuredDataProblems(ParsedDocument parsed) {
    StructuredData data = parsed.getStructuredData();
    if (data == null || data.getProblems().isEmpty()) {
      return "";
    }
    StructuredDataProblem first = data.getProblems().get(0);
    int count = data.getProblems().size();
    return "; structured data: "
        + count
        + (count == 1 ? " problem" : " problems")
        + ", first "
        + (first.getBlock() < 0 ? "" : "in block " + first.getBlock() + ": ")
        + first.getMessage();
  }

  /**
   * A page that became part of a multi-page document ({@link PageAssembly}): not a document of its
   * own, so one published under its URL is deleted ({@code NONCANONICAL}, the document named in the
   * detail).
   *
   * @return the decision, or empty when nothing under the page's URL is published
   */
  public static Optional<Commit> absorbed(
      @Nullable DocumentState previous, String pageUrl, String documentUrl, Instant now) {
    if (previous == null || !previous.getPublished()) {
      return Optional.empty();
    }
    DocumentState state = DocumentState.newBuilder(previous).build();
    return Optional.of(
        withdrawOrIgnore(
            state,
            pageUrl,
            Outcome.PAGE,
            "a page of " + documentUrl,
            DeleteReason.NONCANONICAL,
            true,
            now));
  }

  /**
   * Whether the page names a canonical URL other than its own (which the parser queued instead).
   */
  static boolean isNonCanonical(ParsedDocument parsed) {
    String canonical = parsed.getCanonicalUrl();
    return canonical != null && !canonical.equals(parsed.getUrl());
  }

  /** Whether downstream already has this content: published, with the same content checksum. */
  static boolean isUnmodified(DocumentState state, ParsedDocument parsed) {
    return state.getPublished() && state.getContentChecksum().equals(parsed.getContentChecksum());
  }

  /**
   * As {@link #onFetchOutcome(DocumentState, CrawlOutcome, CommitterSettings, Instant)} with the
   * default settings.
   */
  public static Optional<Commit> onFetchOutcome(
      @Nullable DocumentState previous, CrawlOutcome outcome, Instant now) {
    return onFetchOutcome(previous, outcome, CommitterSettings.DEFAULTS, now);
  }

  /**
   * The decision about an outcome read from {@code crawl.outcomes} for a published document (seed
   * 002's deletions): 410 deletes it at once; 404 after {@code notFoundGrace} crawls in a row; a
   * bad status, a network error or rate limit the frontier gave up on, or a body too large after
   * {@code errorGrace} crawls in a row; newly blocked by robots.txt, filtered or out of scope
   * deletes it at once. A failure within the grace is recorded and logged, and nothing is
   * published. Every other outcome, the committer's own (which it reads back from the topic it
   * writes), a network error the frontier still retries, and outcomes of URLs not published change
   * nothing.
   *
   * @param previous the URL's state, or null when the committer has not seen the URL
   * @return the decision, or empty when nothing changes (no state to store, nothing to log)
   */
  public static Optional<Commit> onFetchOutcome(
      @Nullable DocumentState previous,
      CrawlOutcome outcome,
      CommitterSettings settings,
      Instant now) {
    if (previous == null || !previous.getPublished() || SERVICE.equals(outcome.getService())) {
      return Optional.empty();
    }
    Optional<DeleteReason> reason = deleteReason(outcome);
    if (reason.isEmpty()) {
      return Optional.empty();
    }
    DocumentState state = DocumentState.newBuilder(previous).build();
    String what =
        outcome.getDetail() != null ? outcome.getDetail() : "status " + outcome.getStatus();
    int grace =
        switch (reason.get()) {
          case NOT_FOUND -> settings.notFoundGrace();
          case BAD_STATUS, NETWORK_ERROR, OTHER -> settings.errorGrace();
          default -> 0;
        };
    int failures = state.getFailures() + 1;
    state.setFailures(failures);
    if (failures <= grace) {
      decided(state, outcome.getOutcome(), now);
      String detail = what + ": kept, failed crawl " + failures + " of a grace of " + grace;
      return Optional.of(
          new Commit(outcome.getOutcome(), Optional.of(detail), state, Optional.empty(), false));
    }
    return Optional.of(
        withdrawOrIgnore(
            state,
            outcome.getUrl(),
            outcome.getOutcome(),
            "document deleted: " + what,
            reason.get(),
            true,
            now));
  }

  /**
   * Why an outcome would withdraw a published document, when it would: the answers that say the
   * page is gone or failing for this crawl, and the decisions that say it may no longer be crawled.
   */
  static Optional<DeleteReason> deleteReason(CrawlOutcome outcome) {
    boolean isFinal =
        !"fetcher".equals(outcome.getService()); // the frontier says when it gave up retrying
    return switch (outcome.getOutcome()) {
      case GONE -> Optional.of(DeleteReason.GONE);
      case NOT_FOUND -> Optional.of(DeleteReason.NOT_FOUND);
      case BAD_STATUS -> Optional.of(DeleteReason.BAD_STATUS);
      case TOO_LARGE -> Optional.of(DeleteReason.OTHER);
      case NETWORK_ERROR, RATE_LIMITED ->
          isFinal ? Optional.of(DeleteReason.NETWORK_ERROR) : Optional.empty();
      case BLOCKED_BY_ROBOTS_TXT -> Optional.of(DeleteReason.BLOCKED_BY_ROBOTS_TXT);
      case FILTERED, ADDRESS_DENIED -> Optional.of(DeleteReason.FILTERED);
      case ORPHAN -> Optional.of(DeleteReason.ORPHAN);
      case OUT_OF_SCOPE -> Optional.of(DeleteReason.OUT_OF_SCOPE);
      default -> Optional.empty();
    };
  }

  private static Commit withdrawOrIgnore(
      DocumentState state,
      String url,
      Outcome outcome,
      String detail,
      DeleteReason reason,
      boolean isPublished,
      Instant now) {
    decided(state, outcome, now);
    if (!isPublished) {
      return new Commit(outcome, Optional.of(detail), state, Optional.empty(), false);
    }
    state.setPublished(false);
    DocumentEvent delete =
        DocumentEvent.newBuilder()
            .setType(DocumentEventType.DELETE)
            .setUrl(url)
            .setTime(now)
            .setDocument(null)
            .setDeleteReason(reason)
            .setDeleteDetail(detail)
            .build();
    return new Commit(outcome, Optional.of(detail), state, Optional.of(delete), true);
  }

  private static DocumentState firstSight(Instant now) {
    return DocumentState.newBuilder().setFirstSeenAt(now).build();
  }

  private static void decided(DocumentState state, Outcome outcome, Instant now) {
    state.setLastOutcome(outcome.name());
    state.setDecidedAt(now);
  }

  private static Document document(ParsedDocument parsed, DocumentState state) {
    return Document.newBuilder()
        .setUrl(parsed.getUrl())
        .setCanonicalUrl(parsed.getCanonicalUrl())
        .setPermalink(state.getPermalink())
        .setTitle(parsed.getTitle())
        .setDescription(parsed.getDescription())
        .setLanguage(parsed.getLanguage())
        .setDeclaredLanguage(parsed.getDeclaredLanguage())
        .setAuthor(parsed.getAuthor())
        .setCreatedAt(parsed.getCreatedAt())
        .setModifiedAt(parsed.getModifiedAt())
        .setFilePageCount(parsed.getFilePageCount())
        .setText(ParsedText.of(parsed))
        .setContentType(parsed.getContentType())
        .setCharset(parsed.getCharset())
        .setStatus(parsed.getStatus())
        .setEtag(parsed.getEtag())
        .setLastModified(parsed.getLastModified())
        .setFetchedAt(parsed.getFetchedAt())
        .setPublishedAt(state.getPublishedAt())
        .setFirstSeenAt(state.getFirstSeenAt())
        .setVersion(state.getVersion())
        .setContentChecksum(parsed.getContentChecksum())
        .setMetadataChecksum(parsed.getMetadataChecksum())
        .setOutlinkCount(parsed.getOutlinkCount())
        .setPageCount(parsed.getPageCount())
        .setPages(parsed.getPages())
        .setDepth(parsed.getDepth())
        .setMetadata(parsed.getMetadata())
        .setMarkdown(parsed.getMarkdown())
        .setMarkdownTruncated(parsed.getMarkdownTruncated())
        .setStructuredData(parsed.getStructuredData())
        .setUsage(parsed.getUsage())
        .setRendered(parsed.getRendered())
        .build();
  }
}
