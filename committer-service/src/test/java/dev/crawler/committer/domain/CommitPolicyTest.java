package dev.crawler.committer.domain;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CommitPolicyTest {

  private static final Instant T1 = Instant.parse("2026-11-23T10:00:00Z");
  private static final Instant T2 = Instant.parse("2026-11-24T10:00:00Z");
  private static final String URL = "http://a.example/post";
  private static final String OTHER = "http://a.example/other";

  @ParameterizedTest(
      name =
          "{0}, checksum {1}, noindex {2}, canonical {3} -> {4} {5}, tombstone {6}, published {7}")
  @CsvSource(
      nullValues = "-",
      value = {
        // previous state, checksum, noindex, canonical,
        // outcome,     event,  tombstone, published after
        "none,             c1, false, -,     COMMITTED,    UPSERT, false, true",
        "none,             c1, false, " + URL + ", COMMITTED, UPSERT, false, true",
        "published c1,     c1, false, -,     UNMODIFIED,   -,      false, true",
        "published c1,     c2, false, -,     COMMITTED,    UPSERT, false, true",
        "unpublished c1,   c1, false, -,     COMMITTED,    UPSERT, false, true",
        "none,             c1, true,  -,     NOINDEX,      -,      false, false",
        "unpublished c1,   c1, true,  -,     NOINDEX,      -,      false, false",
        "published c1,     c1, true,  -,     NOINDEX,      DELETE, true,  false",
        "none,             c1, false, " + OTHER + ", NONCANONICAL, -,      false, false",
        "unpublished c1,   c1, false, " + OTHER + ", NONCANONICAL, -,      false, false",
        "published c1,     c2, false, " + OTHER + ", NONCANONICAL, DELETE, true,  false",
        // noindex is decided first: a noindex page naming another canonical is NOINDEX
        "published c1,     c1, true,  " + OTHER + ", NOINDEX,      DELETE, true,  false",
      })
  void decidesWhatDownstreamSeesOfAParsedDocument(
      String previous,
      String checksum,
      boolean noindex,
      @Nullable String canonical,
      Outcome outcome,
      @Nullable DocumentEventType event,
      boolean tombstone,
      boolean publishedAfter) {
    Commit commit = CommitPolicy.decide(state(previous), parsed(checksum, noindex, canonical), T2);

    assertThat(commit.outcome()).isEqualTo(outcome);
    assertThat(commit.event().map(DocumentEvent::getType)).isEqualTo(Optional.ofNullable(event));
    assertThat(commit.isTombstoneFollowing()).isEqualTo(tombstone);
    assertThat(commit.state().getPublished()).isEqualTo(publishedAfter);
    assertThat(commit.state().getLastOutcome()).isEqualTo(outcome.name());
    assertThat(commit.state().getDecidedAt()).isEqualTo(T2);
  }

  @ParameterizedTest(name = "{0} -> detail {1}")
  @CsvSource({
    "none,           'new document, version 1'",
    "published c1,   'content changed, version 2'",
    "unpublished c1, 'published again, version 2'",
  })
  void saysWhyADocumentWasCommitted(String previous, String detail) {
    Commit commit = CommitPolicy.decide(state(previous), parsed("c2", false, null), T2);

    assertThat(commit.detail()).contains(detail);
  }

  @Test
  void saysInTheCrawlLogWhatStructuredDataCouldNotBeRead() {
    StructuredData data =
        StructuredData.newBuilder()
            .setItems(List.of())
            .setOpenGraph(Map.of())
            .setTwitter(Map.of())
            .setAuthors(List.of())
            .setProblems(
                List.of(
                    new StructuredDataProblem(1, "malformed JSON at line 1, column 9"),
                    new StructuredDataProblem(2, "over the 65536 characters of a block")))
            .build();
    ParsedDocument parsed =
        ParsedDocument.newBuilder(parsed("c1", false, null)).setStructuredData(data).build();

    Commit commit = CommitPolicy.decide(null, parsed, T1);

    assertThat(commit.outcome()).isEqualTo(Outcome.COMMITTED);
    assertThat(commit.detail())
        .contains(
            "new document, version 1; structured data: 2 problems, first in block 1: malformed"
                + " JSON at line 1, column 9");
    assertThat(CommitPolicy.decide(null, parsed("c1", false, null), T1).detail())
        .contains("new document, version 1");
  }

  @Test
  void withdrawsAPublishedNoncanonicalDocumentNamingItsCanonical() {
    Commit commit = CommitPolicy.decide(state("published c1"), parsed("c1", false, OTHER), T2);

    assertThat(commit.detail()).contains(OTHER);
    assertThat(commit.event()).contains(deleteAtT2(DeleteReason.NONCANONICAL, OTHER));
  }

  @Test
  void publishesANewDocumentAsVersionOneWithItsUrlAsPermalinkAndEveryFieldOfTheFetch() {
    ParsedDocument parsed =
        ParsedDocument.newBuilder(parsed("c1", false, URL))
            .setDescription("About c1")
            .setLanguage("en")
            .setContentType("text/html")
            .setCharset("UTF-8")
            .setStatus(200)
            .setEtag("\"e1\"")
            .setLastModified("Mon, 23 Nov 2026 09:00:00 GMT")
            .setMetadataChecksum("m1")
            .setOutlinkCount(7)
            .setPageCount(2)
            .setDepth(3)
            .setMetadata(Map.of("og:type", "article"))
            .build();

    Commit commit = CommitPolicy.decide(null, parsed, T2);

    assertThat(commit.event().orElseThrow())
        .isEqualTo(
            DocumentEvent.newBuilder()
                .setType(DocumentEventType.UPSERT)
                .setUrl(URL)
                .setTime(T2)
                .setDocument(
                    Document.newBuilder()
                        .setUrl(URL)
                        .setCanonicalUrl(URL)
                        .setPermalink(URL)
                        .setTitle("Title c1")
                        .setDescription("About c1")
                        .setLanguage("en")
                        .setText("text c1")
                        .setContentType("text/html")
                        .setCharset("UTF-8")
                        .setStatus(200)
                        .setEtag("\"e1\"")
                        .setLastModified("Mon, 23 Nov 2026 09:00:00 GMT")
                        .setFetchedAt(T1)
                        .setPublishedAt(T2)
                        .setFirstSeenAt(T2)
                        .setVersion(1)
                        .setContentChecksum("c1")
                        .setMetadataChecksum("m1")
                        .setOutlinkCount(7)
                        .setPageCount(2)
                        .setDepth(3)
                        .setMetadata(Map.of("og:type", "article"))
                        .build())
                .build());
    assertThat(commit.state())
        .isEqualTo(
            DocumentState.newBuilder()
                .setPermalink(URL)
                .setFirstSeenAt(T2)
                .setPublishedAt(T2)
                .setVersion(1)
                .setContentChecksum("c1")
                .setPublished(true)
                .setLastOutcome("COMMITTED")
                .setDecidedAt(T2)
                .build());
  }

  @Test
  void aChangedDocumentKeepsPermalinkFirstSeenAndPublishDateAndUpdatesTheRest() {
    Commit first = CommitPolicy.decide(null, parsed("c1", false, null), T1);
    ParsedDocument changed = parsed("c2", false, null);
    changed.setPublishedAt(T2);
    changed.setFetchedAt(T2);

    Commit second = CommitPolicy.decide(first.state(), changed, T2);

    Document document = second.event().orElseThrow().getDocument();
    assertThat(second.outcome()).isEqualTo(Outcome.COMMITTED);
    assertThat(document.getVersion()).isEqualTo(2);
    assertThat(document.getPermalink()).isEqualTo(URL);
    assertThat(document.getFirstSeenAt()).isEqualTo(T1);
    assertThat(document.getPublishedAt()).isEqualTo(T1);
    assertThat(document.getFetchedAt()).isEqualTo(T2);
    assertThat(document.getTitle()).isEqualTo("Title c2");
    assertThat(document.getContentChecksum()).isEqualTo("c2");
    assertThat(second.state().getContentChecksum()).isEqualTo("c2");
  }

  @Test
  void aDocumentPublishedAgainAfterADeletionKeepsCountingVersions() {
    Commit first = CommitPolicy.decide(null, parsed("c1", false, null), T1);
    Commit gone =
        CommitPolicy.onFetchOutcome(first.state(), fetchOutcome(Outcome.GONE, "fetcher"), T1)
            .orElseThrow();

    Commit back = CommitPolicy.decide(gone.state(), parsed("c1", false, null), T2);

    Document document = back.event().orElseThrow().getDocument();
    assertThat(document.getVersion()).isEqualTo(2);
    assertThat(document.getPermalink()).isEqualTo(URL);
    assertThat(document.getFirstSeenAt()).isEqualTo(T1);
  }

  @ParameterizedTest(name = "publish date before {0}, page says {1} -> {2}")
  @CsvSource(
      nullValues = "-",
      value = {
        // state's publishedAt (none = new URL first seen at T2), page's publishedAt, published at
        "none,                  -,                    2026-11-24T10:00:00Z",
        "none,                  2020-01-01T00:00:00Z, 2020-01-01T00:00:00Z",
        "2019-05-05T00:00:00Z,  2020-01-01T00:00:00Z, 2019-05-05T00:00:00Z",
        "2019-05-05T00:00:00Z,  -,                    2019-05-05T00:00:00Z",
      })
  void keepsThePublishDateOnceSetElseTakesThePagesElseTheFirstSight(
      String before, @Nullable Instant pageSays, Instant expected) {
    DocumentState previous =
        before.equals("none")
            ? null
            : DocumentState.newBuilder(state("published c1"))
                .setPublishedAt(Instant.parse(before))
                .build();
    ParsedDocument parsed = parsed("c2", false, null);
    parsed.setPublishedAt(pageSays);

    Commit commit = CommitPolicy.decide(previous, parsed, T2);

    assertThat(commit.event().orElseThrow().getDocument().getPublishedAt()).isEqualTo(expected);
    assertThat(commit.state().getPublishedAt()).isEqualTo(expected);
  }

  @Test
  void leavesThePreviousStateUntouched() {
    DocumentState previous = state("published c1");
    DocumentState copy = DocumentState.newBuilder(previous).build();

    CommitPolicy.decide(previous, parsed("c2", false, null), T2);
    CommitPolicy.onFetchOutcome(previous, fetchOutcome(Outcome.GONE, "fetcher"), T2);

    assertThat(previous).isEqualTo(copy);
  }

  @ParameterizedTest(name = "{0} by {1} of a {2} document -> delete {3}")
  @CsvSource(
      nullValues = "-",
      value = {
        // outcome,    service,   previous,    delete reason
        "NOT_FOUND,     fetcher,   published,   NOT_FOUND",
        "GONE,          fetcher,   published,   GONE",
        "NOT_FOUND,     frontier,  published,   NOT_FOUND",
        "NOT_FOUND,     fetcher,   unpublished, -",
        "GONE,          fetcher,   unpublished, -",
        "NOT_FOUND,     fetcher,   none,        -",
        "GONE,          fetcher,   none,        -",
        "NETWORK_ERROR, fetcher,   published,   -",
        "RATE_LIMITED,  fetcher,   published,   -",
        "BLOCKED_BY_ROBOTS_TXT, fetcher, published, BLOCKED_BY_ROBOTS_TXT",
        "FILTERED,      frontier,  published,   FILTERED",
        "OUT_OF_SCOPE,  frontier,  published,   OUT_OF_SCOPE",
        "ORPHAN,        frontier,  published,   ORPHAN",
        "REDIRECT,      fetcher,   published,   -",
        "COMMITTED,     committer, published,   -",
        // the committer reads back its own outcomes: never a reason to delete
        "NOT_FOUND,     committer, published,   -",
        "GONE,          committer, published,   -",
      })
  void deletesAPublishedDocumentWhoseUrlAnotherServiceFoundGone(
      Outcome fetched, String service, String previous, @Nullable DeleteReason reason) {
    Optional<Commit> commit =
        CommitPolicy.onFetchOutcome(state(previous + " c1"), fetchOutcome(fetched, service), T2);

    if (reason == null) {
      assertThat(commit).isEmpty();
      return;
    }
    assertThat(commit.orElseThrow().outcome()).isEqualTo(fetched);
    assertThat(commit.get().detail()).contains("document deleted: status 410 from " + service);
    assertThat(commit.get().event())
        .contains(deleteAtT2(reason, "document deleted: status 410 from " + service));
    assertThat(commit.get().isTombstoneFollowing()).isTrue();
    assertThat(commit.get().state())
        .isEqualTo(
            DocumentState.newBuilder(state("published c1"))
                .setPublished(false)
                .setLastOutcome(fetched.name())
                .setFailures(1)
                .setDecidedAt(T2)
                .build());
  }

  /**
   * Seed 002's deletion grace: a failing URL keeps its document for a number of failed crawls in a
   * row.
   */
  @ParameterizedTest(name = "404 grace {0}, error grace {1}: {2} -> deleted {3} after failure {4}")
  @CsvSource({
    // not-found grace, error grace, outcomes by service
    // (one per crawl), deleted at, failures counted
    "0, 1, NOT_FOUND@fetcher,                                   1, 1",
    "2, 1, NOT_FOUND@fetcher NOT_FOUND@fetcher,                 0, 2",
    "2, 1, NOT_FOUND@fetcher NOT_FOUND@fetcher NOT_FOUND@fetcher, 3, 3",
    "0, 1, BAD_STATUS@fetcher,                                  0, 1",
    "0, 1, BAD_STATUS@fetcher BAD_STATUS@fetcher,               2, 2",
    "0, 0, BAD_STATUS@fetcher,                                  1, 1",
    "0, 1, NETWORK_ERROR@frontier NETWORK_ERROR@frontier,       2, 2",
    "0, 1, NETWORK_ERROR@fetcher NETWORK_ERROR@fetcher NETWORK_ERROR@frontier, 0, 1",
    "0, 1, RATE_LIMITED@frontier TOO_LARGE@fetcher,             2, 2",
    "0, 1, GONE@fetcher,                                        1, 1",
    "5, 5, GONE@fetcher,                                        1, 1",
    "0, 1, BAD_STATUS@fetcher NOT_FOUND@fetcher,                2, 2",
  })
  void deletesAFailingDocumentAfterItsGrace(
      int notFoundGrace, int errorGrace, String outcomes, int deletedAt, int failures) {
    CommitterSettings settings = new CommitterSettings(notFoundGrace, errorGrace, true);
    DocumentState state = Objects.requireNonNull(state("published c1"));
    int crawl = 0;
    int deleted = 0;
    for (String outcome : outcomes.strip().split(" ")) {
      String[] parts = outcome.split("@");
      Optional<Commit> commit =
          CommitPolicy.onFetchOutcome(
              state, fetchOutcome(Outcome.valueOf(parts[0]), parts[1]), settings, T2);
      if (commit.isEmpty()) {
        continue; // a failure the frontier still retries: not a crawl's answer
      }
      crawl++;
      state = commit.get().state();
      if (commit.get().event().isPresent()) {
        assertThat(commit.get().isTombstoneFollowing()).isTrue();
        deleted = crawl;
      } else {
        assertThat(commit.get().detail().orElseThrow())
            .contains("kept, failed crawl " + crawl + " of a grace of");
      }
    }

    assertThat(deleted).isEqualTo(deletedAt);
    assertThat(state.getFailures()).isEqualTo(failures);
    assertThat(state.getPublished()).isEqualTo(deletedAt == 0);
  }

  @Test
  void aGoodFetchEndsTheFailures() {
    DocumentState failing = DocumentState.newBuilder(state("published c1")).setFailures(1).build();

    Commit commit = CommitPolicy.decide(failing, parsed("c1"), T2);

    assertThat(commit.outcome()).isEqualTo(Outcome.UNMODIFIED);
    assertThat(commit.state().getFailures()).isZero();
  }

  @Test
  void aDocumentWithTheContentOfAnotherPublishedUrlIsADuplicate() {
    Commit fresh =
        CommitPolicy.decide(null, parsed("c1"), Optional.of("http://a.example/original"), T2);
    Commit wasPublished =
        CommitPolicy.decide(
            state("published c0"), parsed("c1"), Optional.of("http://a.example/original"), T2);
    Commit itself = CommitPolicy.decide(state("published c1"), parsed("c1"), Optional.of(URL), T2);

    assertThat(fresh.outcome()).isEqualTo(Outcome.DUPLICATE);
    assertThat(fresh.detail()).contains("same content as http://a.example/original");
    assertThat(fresh.event()).isEmpty();
    assertThat(wasPublished.outcome()).isEqualTo(Outcome.DUPLICATE);
    assertThat(wasPublished.event().orElseThrow().getDeleteReason())
        .isEqualTo(DeleteReason.DUPLICATE);
    assertThat(wasPublished.isTombstoneFollowing()).isTrue();
    assertThat(itself.outcome())
        .as("a URL is no duplicate of itself")
        .isEqualTo(Outcome.UNMODIFIED);
  }

  private static CrawlOutcome fetchOutcome(Outcome outcome, String service) {
    return CrawlOutcome.newBuilder()
        .setUrl(URL)
        .setOutcome(outcome)
        .setStatus(410)
        .setDetail("status 410 from " + service)
        .setService(service)
        .build();
  }

  /** {@code none}, or {@code published c1} / {@code unpublished c1}: version 1 first seen at T1. */
  private static @Nullable DocumentState state(String description) {
    if (description.startsWith("none")) {
      return null;
    }
    String[] parts = description.split(" ");
    return DocumentState.newBuilder()
        .setPermalink(URL)
        .setFirstSeenAt(T1)
        .setPublishedAt(T1)
        .setVersion(1)
        .setContentChecksum(parts[1])
        .setPublished(parts[0].equals("published"))
        .setLastOutcome("COMMITTED")
        .setDecidedAt(T1)
        .build();
  }

  /** The delete event of {@link #URL} decided at T2. */
  private static DocumentEvent deleteAtT2(DeleteReason reason, String detail) {
    return DocumentEvent.newBuilder()
        .setType(DocumentEventType.DELETE)
        .setUrl(URL)
        .setTime(T2)
        .setDocument(null)
        .setDeleteReason(reason)
        .setDeleteDetail(detail)
        .build();
  }

  private static ParsedDocument parsed(String checksum) {
    return parsed(checksum, false, null);
  }

  private static ParsedDocument parsed(
      String checksum, boolean noindex, @Nullable String canonical) {
    return ParsedDocument.newBuilder()
        .setUrl(URL)
        .setRequestId("req-" + checksum)
        .setCanonicalUrl(canonical)
        .setTitle("Title " + checksum)
        .setText(ParsedText.utf8("text " + checksum))
        .setContentChecksum(checksum)
        .setNoindex(noindex)
        .setFetchedAt(T1)
        .build();
  }
}
