package dev.crawler.committer.domain;

/**
 * What the committer is told (deletions and duplicates), free of Kafka.
 *
 * @param notFoundGrace crawls in a row that may answer 404 before a published document is deleted;
 *     0 deletes it at the first 404
 * @param errorGrace crawls in a row that may fail otherwise (a bad status; a network error or rate
 *     limit after the frontier's retries; too large) before a published document is deleted; 1 is
 *     Norconex's GRACE_ONCE: deleted when the next crawl fails too
 * @param detectsDuplicates whether a document whose content checksum another published URL has is
 *     {@code DUPLICATE} rather than published (the first URL keeps the document)
 */
public record CommitterSettings(int notFoundGrace, int errorGrace, boolean detectsDuplicates) {

  /** 404 deletes at once, other failures after one more failed crawl, duplicates detected. */
  public static final CommitterSettings DEFAULTS = new CommitterSettings(0, 1, true);

  public CommitterSettings {
    if (notFoundGrace < 0 || errorGrace < 0) {
      throw new IllegalArgumentException("a grace is 0 or more crawls");
    }
  }
}
