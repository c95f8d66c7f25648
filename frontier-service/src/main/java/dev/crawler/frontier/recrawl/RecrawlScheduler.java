package dev.crawler.frontier.recrawl;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The event-driven recrawl, as a pure state machine driven by a clock the caller passes in. Each
 * {@link #fire event} goes to the next site, in round-robin order, among the sites that still have
 * a suitable document; all of the event's runs go to that site, one request each, oldest document
 * first; runs left when the site has nothing suitable are not passed to another site. A multi-page
 * document takes one run per page, and no other document of the site starts until all its pages are
 * done (possibly over several events).
 *
 * <p>A document is suitable when its site's recrawling is active, it was recrawled fewer than
 * {@code maxCount} times, not within {@code minBetween}, and it is newer than {@code newerThan}.
 * Each site keeps its documents ordered by last recrawl (never first), then publish date, then URL,
 * so an event looks at the head of one site's order and never scans all documents: a document too
 * old is dropped for good (age only grows), and when the head was recrawled too recently, so were
 * all the others. Not thread-safe.
 */
public final class RecrawlScheduler {

  /** One run of an event: one request for one page of a document. */
  public record Run(String site, String document, String page, int pageIndex, int pageCount) {}

  /**
   * What an event did: the site it went to (none when no site had a suitable document) and its
   * runs.
   */
  public record Event(Instant at, Optional<String> site, List<Run> runs) {}

  /** How often a document was recrawled and when last (empty before its first recrawl). */
  public record Recrawls(int count, Optional<Instant> lastRecrawledAt) {}

  /**
   * A multi-page document a site is in the middle of: the next event goes on with page {@code
   * nextPage}.
   */
  public record Progress(String document, int nextPage) {}

  private static final class Document {
    final String url;
    final List<String> pages;
    final Instant publishedAt;
    int count;
    @Nullable Instant lastRecrawledAt;

    Document(String url, List<String> pages, Instant publishedAt) {
      this.url = url;
      this.pages = List.copyOf(pages);
      this.publishedAt = publishedAt;
    }
  }

  private static final Comparator<Document> OLDEST_FIRST =
      Comparator.<Document, Instant>comparing(
              d -> d.lastRecrawledAt == null ? Instant.MIN : d.lastRecrawledAt)
          .thenComparing(d -> d.publishedAt)
          .thenComparing(d -> d.url);

  private static final class Site {
    final String name;
    RecrawlPolicy policy;
    final TreeSet<Document> queue = new TreeSet<>(OLDEST_FIRST);
    @Nullable Document current;
    int nextPage;

    Site(String name, RecrawlPolicy policy) {
      this.name = name;
      this.policy = policy;
    }
  }

  private final Map<String, Site> sites = new HashMap<>();

  /** Sites in round-robin order (the order they were added). */
  private final List<Site> order = new ArrayList<>();

  private final Map<String, Site> siteOfDocument = new HashMap<>();
  private final Map<String, Document> documents = new HashMap<>();

  /** The position in {@link #order} of the site the last event went to; -1 before the first. */
  private int lastSite = -1;

  /** Adds a site, or changes its policy. */
  public void site(String name, RecrawlPolicy policy) {
    Site site = sites.get(name);
    if (site == null) {
      site = new Site(name, policy);
      sites.put(name, site);
      order.add(site);
    } else {
      site.policy = policy;
    }
  }

  /**
   * A document the site published (the committer's upsert): its pages in order (one for a
   * single-page document) and its publish date, which recrawls never change. A known document keeps
   * its publish date and recrawl count; only its pages are taken when they changed (a page added or
   * removed).
   *
   * @return whether anything changed
   */
  public boolean document(String site, String url, List<String> pages, Instant publishedAt) {
    Site owner = Objects.requireNonNull(sites.get(site), () -> "unknown site " + site);
    if (pages.isEmpty()) {
      return false;
    }
    Document known = documents.get(url);
    if (known != null) {
      if (known.pages.equals(pages) || owner.current == known) {
        return false; // pages being recrawled change after the document is done
      }
      Document updated = new Document(url, pages, known.publishedAt);
      updated.count = known.count;
      updated.lastRecrawledAt = known.lastRecrawledAt;
      boolean wasQueued = owner.queue.remove(known);
      documents.put(url, updated);
      if (wasQueued) {
        owner.queue.add(updated);
      }
      return true;
    }
    Document document = new Document(url, pages, publishedAt);
    documents.put(url, document);
    siteOfDocument.put(url, owner);
    owner.queue.add(document);
    return true;
  }

  /**
   * A document as it was saved (after a restart): its pages, publish date and recrawls so far. A
   * document recrawled its site's maximum count of times is kept but not queued.
   */
  public void restore(
      String site, String url, List<String> pages, Instant publishedAt, Recrawls recrawls) {
    Site owner = Objects.requireNonNull(sites.get(site), () -> "unknown site " + site);
    Document document = new Document(url, pages, publishedAt);
    document.count = recrawls.count();
    document.lastRecrawledAt = recrawls.lastRecrawledAt().orElse(null);
    documents.put(url, document);
    siteOfDocument.put(url, owner);
    if (document.count < owner.policy.maxCount()) {
      owner.queue.add(document);
    }
  }

  /** Restores a site's progress through a multi-page document (after a restart). */
  public void resume(String site, Progress progress) {
    Site owner = Objects.requireNonNull(sites.get(site), () -> "unknown site " + site);
    Document document = documents.get(progress.document());
    if (document != null
        && progress.nextPage() > 0
        && progress.nextPage() < document.pages.size()) {
      owner.queue.remove(document);
      owner.current = document;
      owner.nextPage = progress.nextPage();
    }
  }

  /**
   * Restores the site the last event went to (after a restart), so the next goes to the one after
   * it.
   */
  public void resumeAfter(String site) {
    Site owner = sites.get(site);
    lastSite = owner == null ? -1 : order.indexOf(owner);
  }

  /** The site the last event went to. */
  public Optional<String> lastSite() {
    return lastSite < 0 ? Optional.empty() : Optional.of(order.get(lastSite).name);
  }

  /** A known document's recrawls so far. */
  public Optional<Recrawls> recrawls(String url) {
    Document document = documents.get(url);
    return document == null
        ? Optional.empty()
        : Optional.of(new Recrawls(document.count, Optional.ofNullable(document.lastRecrawledAt)));
  }

  /** A known document's pages. */
  public List<String> pages(String url) {
    return Objects.requireNonNull(documents.get(url), () -> "unknown document " + url).pages;
  }

  /** A known document's publish date. */
  public Instant publishedAt(String url) {
    return Objects.requireNonNull(documents.get(url), () -> "unknown document " + url).publishedAt;
  }

  /** The multi-page document a site is in the middle of, if any. */
  public Optional<Progress> progress(String site) {
    Site owner = Objects.requireNonNull(sites.get(site), () -> "unknown site " + site);
    return owner.current == null
        ? Optional.empty()
        : Optional.of(new Progress(owner.current.url, owner.nextPage));
  }

  /** How many documents the scheduler knows. */
  public int size() {
    return documents.size();
  }

  /** A document that is gone (deleted downstream): it is not recrawled any more. */
  public void remove(String url) {
    Document document = documents.remove(url);
    Site site = siteOfDocument.remove(url);
    if (document != null && site != null) {
      site.queue.remove(document);
      if (site.current == document) {
        site.current = null;
        site.nextPage = 0;
      }
    }
  }

  /**
   * One recrawl event at {@code now}: picks the site and returns its runs; the documents they
   * finish count as recrawled at {@code now}.
   */
  public Event fire(Instant now) {
    for (int i = 1; i <= order.size(); i++) {
      int index = (lastSite + i) % order.size();
      Site site = order.get(index);
      if (hasSuitable(site, now)) {
        lastSite = index;
        return new Event(now, Optional.of(site.name), runs(site, now));
      }
    }
    return new Event(now, Optional.empty(), List.of());
  }

  /**
   * The documents of a site that are suitable at {@code now} (for reports and tests: looks at all
   * of them).
   */
  public int suitableCount(String name, Instant now) {
    Site site = Objects.requireNonNull(sites.get(name), () -> "unknown site " + name);
    if (!site.policy.isActive()) {
      return 0;
    }
    int count = 0;
    for (Document document : site.queue) {
      if (isSuitable(site.policy, document, now)) {
        count++;
      }
    }
    return count;
  }

  /**
   * Whether a document is suitable for recrawling at {@code now}: recrawling is on for its site,
   * the document has recrawls left, its last one is old enough and it is new enough.
   */
  public static boolean isSuitable(
      RecrawlPolicy policy,
      int count,
      @Nullable Instant lastRecrawledAt,
      Instant publishedAt,
      Instant now) {
    if (!policy.isActive() || count >= policy.maxCount()) {
      return false;
    }
    if (lastRecrawledAt != null
        && Duration.between(lastRecrawledAt, now).compareTo(policy.minBetween()) < 0) {
      return false;
    }
    return policy
        .newerThan()
        .map(window -> Duration.between(publishedAt, now).compareTo(window) < 0)
        .orElse(true);
  }

  private static boolean isSuitable(RecrawlPolicy policy, Document document, Instant now) {
    return isSuitable(policy, document.count, document.lastRecrawledAt, document.publishedAt, now);
  }

  private boolean hasSuitable(Site site, Instant now) {
    if (!site.policy.isActive()) {
      return false;
    }
    if (site.current != null) {
      return true; // a document whose pages are not all done yet goes on first
    }
    return head(site, now) != null;
  }

  /**
   * The site's next suitable document, dropping for good those that will never be suitable again
   * (too old); null when the head is not suitable now (recrawled too recently: so were all behind
   * it).
   */
  private @Nullable Document head(Site site, Instant now) {
    while (!site.queue.isEmpty()) {
      Document first = site.queue.first();
      boolean isTooOld =
          site.policy
              .newerThan()
              .map(window -> Duration.between(first.publishedAt, now).compareTo(window) >= 0)
              .orElse(false);
      if (isTooOld) {
        site.queue.pollFirst();
        continue;
      }
      return isSuitable(site.policy, first, now) ? first : null;
    }
    return null;
  }

  private List<Run> runs(Site site, Instant now) {
    List<Run> runs = new ArrayList<>();
    while (runs.size() < site.policy.runsPerEvent()) {
      if (site.current == null) {
        Document next = head(site, now);
        if (next == null) {
          break; // the runs left are not passed to another site
        }
        site.queue.pollFirst();
        site.current = next;
        site.nextPage = 0;
      }
      Document document = site.current;
      runs.add(
          new Run(
              site.name,
              document.url,
              document.pages.get(site.nextPage),
              site.nextPage,
              document.pages.size()));
      site.nextPage++;
      if (site.nextPage == document.pages.size()) {
        finished(site, document, now);
      }
    }
    return runs;
  }

  private static void finished(Site site, Document document, Instant now) {
    document.count++;
    document.lastRecrawledAt = now;
    site.current = null;
    site.nextPage = 0;
    if (document.count < site.policy.maxCount()) {
      site.queue.add(document);
    }
  }
}
