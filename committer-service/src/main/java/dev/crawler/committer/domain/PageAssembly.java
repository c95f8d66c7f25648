package dev.crawler.committer.domain;

import dev.crawler.common.hash.Sha256;
import dev.crawler.events.DocumentPage;
import dev.crawler.events.DocumentPages;
import dev.crawler.events.ParsedDocument;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Multi-page documents (multi-page posts, option {@code pagination}): the pages of one document,
 * each fetched and parsed on its own, are published as one document whose content is the pages'
 * texts in page order, and whose markdown is the pages' markdown in page order. The first page
 * names the second, the second the third, and so on; a pass starts when the first page is reported
 * (parsed, or answered 304) and is complete when every page of the chain was reported since the
 * document was last assembled and the last names no next page. A recrawl fetches a document's pages
 * at once, so they are parsed in any order: a page parsed just before the first still counts for
 * the pass the first starts. A complete pass gives the assembled document, which {@link
 * CommitPolicy} decides like any parsed page (an unchanged assembly is {@code UNMODIFIED}). A page
 * reported outside a pass (refreshed on its own) gives the assembly again only when its content
 * changed.
 *
 * <p>Pure: the caller passes the document's previous state and stores {@link Step#state()}, and
 * keeps the page-to-document index with {@link Step#joined()} and {@link Step#left()}. Thread-safe.
 */
public final class PageAssembly {

  /**
   * The most pages one document has; a longer chain is cut there (a calendar's "next month" never
   * ends).
   */
  public static final int MAX_PAGES = 100;

  /**
   * The most text one document has, in UTF-8 bytes, and the most markdown; the chain is cut after
   * the page that reaches either. The document's pages are kept in one record of the committer's
   * state beside the assembled text, and each must stay far below the largest record the topics
   * take.
   */
  public static final long MAX_TEXT_BYTES = 4L * 1024 * 1024;

  /** The separator of the pages' texts in the assembled document. */
  static final String PAGE_BREAK = "\n\n";

  /**
   * What one report did.
   *
   * @param state the document's pages to store
   * @param joined pages that became part of the document (index them to it)
   * @param left pages that are not part of it any more (the chain changed)
   * @param assembled the document to decide, when this report completed it
   * @param index the reported page's place in the document, from 0
   */
  public record Step(
      DocumentPages state,
      List<String> joined,
      List<String> left,
      Optional<ParsedDocument> assembled,
      int index) {

    /** How many pages the chain has so far. */
    public int pageCount() {
      return state.getPages().size();
    }
  }

  private PageAssembly() {}

  /** The first page parsed: a pass starts. */
  public static Step first(@Nullable DocumentPages previous, ParsedDocument parsed, Instant now) {
    List<DocumentPage> pages = previous == null ? new ArrayList<>() : copy(previous.getPages());
    DocumentPage first = page(parsed.getUrl(), parsed, now);
    if (pages.isEmpty()) {
      pages.add(first);
    } else {
      pages.set(0, first);
    }
    ParsedDocument head =
        ParsedDocument.newBuilder(parsed)
            .setText(ParsedText.utf8(""))
            .setMarkdown(null)
            .setMarkdownTruncated(false)
            .setNextPage(null)
            .build();
    return chained(new DocumentPages(head, pages, now), 0, parsed.getNextPage(), now, false);
  }

  /**
   * A later page parsed.
   *
   * @return empty when the page is not (any more) part of the document
   */
  public static Optional<Step> page(DocumentPages state, ParsedDocument parsed, Instant now) {
    int index = indexOf(state, parsed.getUrl());
    if (index <= 0) {
      return Optional.empty();
    }
    List<DocumentPage> pages = copy(state.getPages());
    boolean isChanged = !parsed.getContentChecksum().equals(pages.get(index).getContentChecksum());
    pages.set(index, page(parsed.getUrl(), parsed, now));
    return Optional.of(
        chained(
            new DocumentPages(state.getFirst(), pages, state.getPassStartedAt()),
            index,
            parsed.getNextPage(),
            now,
            isChanged));
  }

  /**
   * A page of the document answered 304 (unchanged since its last fetch): it counts as reported
   * with the text it had; the first page starts a pass.
   *
   * @return empty when the URL is not a page of the document
   */
  public static Optional<Step> unmodified(DocumentPages state, String url, Instant now) {
    int index = indexOf(state, url);
    if (index < 0) {
      return Optional.empty();
    }
    List<DocumentPage> pages = copy(state.getPages());
    pages.get(index).setReportedAt(now);
    pages.get(index).setReportedSinceAssembly(true);
    Instant passStartedAt = index == 0 ? now : state.getPassStartedAt();
    DocumentPages next = new DocumentPages(state.getFirst(), pages, passStartedAt);
    return Optional.of(completed(next, List.of(), List.of(), index, false, now));
  }

  /** Takes the page's next page into the chain, cutting what followed when the chain changed. */
  private static Step chained(
      DocumentPages state, int index, @Nullable String next, Instant now, boolean isChanged) {
    List<DocumentPage> pages = state.getPages();
    List<String> left = new ArrayList<>();
    List<String> joined = new ArrayList<>();
    boolean isSameChain =
        next == null
            ? pages.size() == index + 1
            : pages.size() > index + 1 && pages.get(index + 1).getUrl().equals(next);
    if (!isSameChain) {
      while (pages.size() > index + 1) {
        left.add(pages.remove(pages.size() - 1).getUrl());
      }
      boolean isLoop = next != null && pages.stream().anyMatch(p -> p.getUrl().equals(next));
      if (next != null && !isLoop && !isFull(pages)) {
        pages.add(DocumentPage.newBuilder().setUrl(next).build());
        left.remove(next);
        joined.add(next);
      }
    }
    return completed(state, joined, left, index, isChanged, now);
  }

  /**
   * The assembled document when the pass is complete, or when a page reported outside a pass
   * changed a document whose pages all have text.
   */
  private static Step completed(
      DocumentPages state,
      List<String> joined,
      List<String> left,
      int index,
      boolean isChangedOutsidePass,
      Instant now) {
    List<DocumentPage> pages = state.getPages();
    boolean isChainEnd = pages.get(pages.size() - 1).getNextPage() == null || isFull(pages);
    boolean hasAllTexts = pages.stream().allMatch(p -> p.getText() != null);
    boolean isPassOpen = state.getPassStartedAt().toEpochMilli() > 0;
    boolean isPassComplete =
        isPassOpen && pages.stream().allMatch(DocumentPage::getReportedSinceAssembly);
    if (isChainEnd && hasAllTexts && (isPassComplete || (!isPassOpen && isChangedOutsidePass))) {
      pages.forEach(page -> page.setReportedSinceAssembly(false));
      DocumentPages closed = new DocumentPages(state.getFirst(), pages, Instant.EPOCH);
      return new Step(closed, joined, left, Optional.of(assembled(closed, now)), index);
    }
    return new Step(state, joined, left, Optional.empty(), index);
  }

  /**
   * Whether the chain takes no more pages: it has {@link #MAX_PAGES}, or its texts or its markdown
   * have {@link #MAX_TEXT_BYTES} (a page not parsed yet counts nothing).
   */
  static boolean isFull(List<DocumentPage> pages) {
    if (pages.size() >= MAX_PAGES) {
      return true;
    }
    long textBytes = 0;
    long markdownBytes = 0;
    for (DocumentPage page : pages) {
      textBytes += utf8Length(page.getText());
      markdownBytes += utf8Length(page.getMarkdown());
    }
    return textBytes >= MAX_TEXT_BYTES || markdownBytes >= MAX_TEXT_BYTES;
  }

  private static long utf8Length(@Nullable CharSequence s) {
    return s == null ? 0 : s.toString().getBytes(StandardCharsets.UTF_8).length;
  }

  /**
   * The document the pages make: the first page's facts, the texts in page order, the markdown in
   * page order (none unless every page has some), one checksum over the pages'.
   */
  static ParsedDocument assembled(DocumentPages state, Instant now) {
    List<DocumentPage> pages = state.getPages();
    List<String> texts = new ArrayList<>(pages.size());
    List<String> markdowns = new ArrayList<>(pages.size());
    boolean isMarkdownTruncated = false;
    StringBuilder checksums = new StringBuilder();
    for (DocumentPage page : pages) {
      texts.add(Objects.requireNonNull(page.getText()));
      if (page.getMarkdown() != null) {
        markdowns.add(page.getMarkdown());
      }
      isMarkdownTruncated |= page.getMarkdownTruncated();
      checksums.append(page.getContentChecksum()).append('\n');
    }
    boolean hasMarkdown = markdowns.size() == pages.size();
    return ParsedDocument.newBuilder(state.getFirst())
        .setText(ParsedText.utf8(String.join(PAGE_BREAK, texts)))
        .setMarkdown(hasMarkdown ? String.join(PAGE_BREAK, markdowns) : null)
        .setMarkdownTruncated(hasMarkdown && isMarkdownTruncated)
        .setContentChecksum(
            pages.size() == 1 ? pages.get(0).getContentChecksum() : sha256(checksums.toString()))
        .setPageCount(pages.size())
        .setPages(pages.stream().map(DocumentPage::getUrl).toList())
        .setNextPage(null)
        .build();
  }

  private static DocumentPage page(String url, ParsedDocument parsed, Instant now) {
    return DocumentPage.newBuilder()
        .setUrl(url)
        .setText(ParsedText.of(parsed))
        .setMarkdown(parsed.getMarkdown())
        .setMarkdownTruncated(parsed.getMarkdownTruncated())
        .setContentChecksum(parsed.getContentChecksum())
        .setNextPage(parsed.getNextPage())
        .setReportedAt(now)
        .setReportedSinceAssembly(true)
        .build();
  }

  private static int indexOf(DocumentPages state, String url) {
    List<DocumentPage> pages = state.getPages();
    for (int i = 0; i < pages.size(); i++) {
      if (pages.get(i).getUrl().equals(url)) {
        return i;
      }
    }
    return -1;
  }

  private static List<DocumentPage> copy(List<DocumentPage> pages) {
    List<DocumentPage> copies = new ArrayList<>(pages.size());
    pages.forEach(page -> copies.add(DocumentPage.newBuilder(page).build()));
    return copies;
  }

  private static String sha256(String text) {
    return HexFormat.of()
        .formatHex(Sha256.newDigest().digest(text.getBytes(StandardCharsets.UTF_8)));
  }
}
