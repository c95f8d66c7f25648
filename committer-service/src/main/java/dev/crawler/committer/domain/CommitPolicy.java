package dev.crawler.committer.domain;

import dev.crawler.committer.state.DocumentState;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DeleteReason;
import dev.crawler.events.Document;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.DocumentEventType;
import dev.crawler.events.Outcome;
import dev.crawler.events.ParsedDocument;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Decides what downstream sees of a URL (DESIGN.md section 2, seed 002's commit half): an upsert when
 * the document is new or its content changed; nothing when it is unchanged, noindex or non-canonical;
 * a delete when a published document turns noindex, non-canonical, not found or gone. The permalink
 * (the URL first published under), the first-seen time and the publish date are kept across recrawls
 * (seed 000); every other field is updated.
 *
 * <p>Pure and stateless: the caller passes the URL's previous state and stores {@link Commit#state()}.
 * The previous state is copied, never modified. Thread-safe.
 */
public final class CommitPolicy {

  /** The name the committer signs its outcomes and log entries with. */
  public static final String SERVICE = "committer";

  private CommitPolicy() {}

  /**
   * The decision about a parsed document, in this order: noindex, then non-canonical (a canonical URL
   * other than the document's own), then unmodified (published with the same content checksum), else
   * committed. A noindex or non-canonical document that is published is deleted.
   *
   * @param previous the URL's state, or null when the committer has not seen the URL
   * @param now when the decision is made: the first-seen time of a new URL and the time of the events
   */
  public static Commit decide(@Nullable DocumentState previous, ParsedDocument parsed, Instant now) {
    DocumentState state = previous != null ? DocumentState.newBuilder(previous).build() : firstSight(now);
    boolean isPublished = state.getPublished();
    if (parsed.getNoindex()) {
      return withdrawOrIgnore(state, parsed.getUrl(), Outcome.NOINDEX, "robots meta noindex", DeleteReason.NOINDEX, isPublished, now);
    }
    if (isNonCanonical(parsed)) {
      String canonical = Objects.requireNonNull(parsed.getCanonicalUrl());
      return withdrawOrIgnore(state, parsed.getUrl(), Outcome.NONCANONICAL, canonical, DeleteReason.NONCANONICAL, isPublished, now);
    }
    if (isUnmodified(state, parsed)) {
      decided(state, Outcome.UNMODIFIED, now);
      return new Commit(Outcome.UNMODIFIED, Optional.of("content checksum unchanged"), state, Optional.empty(), false);
    }
    String detail = state.getVersion() == 0 ? "new document" : isPublished ? "content changed" : "published again";
    long version = state.getVersion() + 1;
    if (state.getPermalink().isEmpty()) {
      state.setPermalink(parsed.getUrl());
    }
    if (state.getPublishedAt() == null) {
      // seed 000: the publish date is set once, from the page when it states one, else the first sight
      state.setPublishedAt(parsed.getPublishedAt() != null ? parsed.getPublishedAt() : state.getFirstSeenAt());
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
    return new Commit(Outcome.COMMITTED, Optional.of(detail + ", version " + version), state, Optional.of(upsert), false);
  }

  /** Whether the page names a canonical URL other than its own (which the parser queued instead). */
  static boolean isNonCanonical(ParsedDocument parsed) {
    String canonical = parsed.getCanonicalUrl();
    return canonical != null && !canonical.equals(parsed.getUrl());
  }

  /** Whether downstream already has this content: published, with the same content checksum. */
  static boolean isUnmodified(DocumentState state, ParsedDocument parsed) {
    return state.getPublished() && state.getContentChecksum().equals(parsed.getContentChecksum());
  }

  /**
   * The decision about an outcome read from {@code crawl.outcomes}: a published document whose URL
   * another service found 404 (NOT_FOUND) or 410 (GONE) is deleted. Every other outcome, the
   * committer's own (which it reads back from the topic it writes), and outcomes of URLs not published
   * change nothing.
   *
   * @param previous the URL's state, or null when the committer has not seen the URL
   * @return the deletion, or empty when nothing changes (no state to store, nothing to log)
   */
  public static Optional<Commit> onFetchOutcome(@Nullable DocumentState previous, CrawlOutcome outcome, Instant now) {
    if (!isWithdrawal(outcome) || previous == null || !previous.getPublished()) {
      return Optional.empty();
    }
    DeleteReason reason = outcome.getOutcome() == Outcome.GONE ? DeleteReason.GONE : DeleteReason.NOT_FOUND;
    DocumentState state = DocumentState.newBuilder(previous).build();
    String detail = "document deleted: " + (outcome.getDetail() != null ? outcome.getDetail() : "status " + outcome.getStatus());
    return Optional.of(withdrawOrIgnore(state, outcome.getUrl(), outcome.getOutcome(), detail, reason, true, now));
  }

  private static Commit withdrawOrIgnore(
      DocumentState state, String url, Outcome outcome, String detail, DeleteReason reason, boolean isPublished, Instant now) {
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

  /** Whether an outcome says the URL's document no longer exists: a 404 or 410 found by another service. */
  static boolean isWithdrawal(CrawlOutcome outcome) {
    boolean isRemoval = outcome.getOutcome() == Outcome.NOT_FOUND || outcome.getOutcome() == Outcome.GONE;
    return isRemoval && !SERVICE.equals(outcome.getService());
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
        .setText(parsed.getText())
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
        .setDepth(parsed.getDepth())
        .setMetadata(parsed.getMetadata())
        .build();
  }
}
