package dev.crawler.committer.domain;

import dev.crawler.committer.state.DocumentState;
import dev.crawler.events.DocumentEvent;
import dev.crawler.events.Outcome;
import java.util.Optional;

/**
 * What the committer decided about a URL.
 *
 * @param outcome the decision (COMMITTED, UNMODIFIED, NOINDEX, NONCANONICAL, or the NOT_FOUND /
 *     GONE that withdrew a document)
 * @param detail why, or empty
 * @param state the URL's document state from now on
 * @param event the document event to publish, or empty when downstream has nothing to learn
 * @param isTombstoneFollowing whether a tombstone follows the event (after a delete, so that
 *     compaction removes the document from {@code crawl.documents})
 */
public record Commit(
    Outcome outcome,
    Optional<String> detail,
    DocumentState state,
    Optional<DocumentEvent> event,
    boolean isTombstoneFollowing) {}
