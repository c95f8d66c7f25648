package dev.crawler.committer.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.committer.state.DocumentState;
import dev.crawler.events.CrawlOutcome;
import dev.crawler.events.DeleteReason;
import dev.crawler.events.DocumentEventType;
import dev.crawler.events.Outcome;
import dev.crawler.events.ParsedDocument;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CommitPolicyTest {

  private static final Instant T1 = Instant.parse("2026-11-23T10:00:00Z");
  private static final Instant T2 = Instant.parse("2026-11-24T10:00:00Z");
  private static final String URL = "http://a.example/post";

  @ParameterizedTest(name = "previously {0}, checksum {1}, noindex {2}, canonical {3} -> {4}, event {5}")
  @CsvSource({
    // previous state, checksum, noindex, canonical, outcome, event, tombstone
    "none,            c1, false, ,                      COMMITTED,    UPSERT, false",
    "none,            c1, false, http://a.example/post, COMMITTED,    UPSERT, false",
    "published c1,    c1, false, ,                      UNMODIFIED,   ,       false",
    "published c1,    c2, false, ,                      COMMITTED,    UPSERT, false",
    "unpublished c1,  c1, false, ,                      COMMITTED,    UPSERT, false",
    "none,            c1, true,  ,                      NOINDEX,      ,       false",
    "published c1,    c1, true,  ,                      NOINDEX,      DELETE, true",
    "none,            c1, false, http://a.example/other,NONCANONICAL, ,       false",
    "published c1,    c2, false, http://a.example/other,NONCANONICAL, DELETE, true",
  })
  void decidesWhatDownstreamSees(String previous, String checksum, boolean noindex, String canonical, Outcome outcome, DocumentEventType event, boolean tombstone) {
    Commit commit = CommitPolicy.decide(state(previous), parsed(checksum, noindex, canonical), T2);

    assertThat(commit.outcome()).isEqualTo(outcome);
    assertThat(commit.event().map(e -> e.getType())).isEqualTo(Optional.ofNullable(event));
    assertThat(commit.isTombstoneFollowing()).isEqualTo(tombstone);
    assertThat(commit.state().getPublished()).isEqualTo(outcome == Outcome.COMMITTED || outcome == Outcome.UNMODIFIED);
  }

  @Test
  void aNewDocumentIsVersionOneWithItsUrlAsPermalinkAndFirstSeenAsPublishDate() {
    Commit commit = CommitPolicy.decide(null, parsed("c1", false, null), T1);

    var document = commit.event().orElseThrow().getDocument();
    assertThat(document.getVersion()).isEqualTo(1);
    assertThat(document.getPermalink()).isEqualTo(URL);
    assertThat(document.getFirstSeenAt()).isEqualTo(T1);
    assertThat(document.getPublishedAt()).isEqualTo(T1);
    assertThat(document.getContentChecksum()).isEqualTo("c1");
    assertThat(document.getTitle()).isEqualTo("Title c1");
  }

  @Test
  void aChangedDocumentKeepsPermalinkFirstSeenAndPublishDateAndUpdatesTheRest() {
    Commit first = CommitPolicy.decide(null, parsed("c1", false, null), T1);
    ParsedDocument changed = parsed("c2", false, null);
    changed.setPublishedAt(T2);

    Commit second = CommitPolicy.decide(first.state(), changed, T2);

    var document = second.event().orElseThrow().getDocument();
    assertThat(second.outcome()).isEqualTo(Outcome.COMMITTED);
    assertThat(document.getVersion()).isEqualTo(2);
    assertThat(document.getPermalink()).isEqualTo(URL);
    assertThat(document.getFirstSeenAt()).isEqualTo(T1);
    assertThat(document.getPublishedAt()).isEqualTo(T1);
    assertThat(document.getTitle()).isEqualTo("Title c2");
    assertThat(document.getContentChecksum()).isEqualTo("c2");
  }

  @ParameterizedTest(name = "{0} of a {1} document -> {2}")
  @CsvSource({
    "NOT_FOUND,     published,   NOT_FOUND",
    "GONE,          published,   GONE",
    "NOT_FOUND,     unpublished, ",
    "NOT_FOUND,     none,        ",
    "BAD_STATUS,    published,   ",
    "NETWORK_ERROR, published,   ",
  })
  void deletesAPublishedDocumentWhoseUrlIsNotFoundOrGone(Outcome fetched, String previous, DeleteReason reason) {
    CrawlOutcome outcome = CrawlOutcome.newBuilder().setUrl(URL).setOutcome(fetched).setStatus(404).setDetail("404").setService("fetcher").build();

    Optional<Commit> commit = CommitPolicy.onFetchOutcome(state(previous + " c1"), outcome, T2);

    if (reason == null) {
      assertThat(commit).isEmpty();
    } else {
      assertThat(commit.orElseThrow().event().orElseThrow().getType()).isEqualTo(DocumentEventType.DELETE);
      assertThat(commit.get().event().get().getDeleteReason()).isEqualTo(reason);
      assertThat(commit.get().isTombstoneFollowing()).isTrue();
      assertThat(commit.get().state().getPublished()).isFalse();
    }
  }

  private static DocumentState state(String description) {
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
        .build();
  }

  private static ParsedDocument parsed(String checksum, boolean noindex, String canonical) {
    return ParsedDocument.newBuilder()
        .setUrl(URL)
        .setCanonicalUrl(canonical)
        .setTitle("Title " + checksum)
        .setText("text " + checksum)
        .setContentChecksum(checksum)
        .setNoindex(noindex)
        .setFetchedAt(T1)
        .build();
  }
}
