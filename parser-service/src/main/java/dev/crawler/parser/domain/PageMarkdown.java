package dev.crawler.parser.domain;

import org.jsoup.nodes.Element;

/**
 * A page's main content as GitHub Flavored Markdown, for search and retrieval. It is what {@link
 * PageText} is as flat text, with the structure kept.
 *
 * <ul>
 *   <li>Headings keep their level ({@code #} to {@code ######}); paragraphs, {@code <br>} (a hard
 *       break, two in a row a new paragraph), thematic breaks.
 *   <li>Lists, nested and ordered ({@code start} and {@code value} kept), items tight; {@code
 *       <dl>}: each term a bold paragraph, each definition a paragraph.
 *   <li>Tables as GFM tables: the {@code <thead>}'s first row, else the first row, is the header;
 *       the header cells' alignment ({@code align} or {@code text-align}) becomes the delimiter
 *       row's; {@code colspan} and {@code rowspan} fill empty cells; a cell's content on one line,
 *       its pipes escaped; a table of one column (a layout table) is read as the blocks it holds.
 *   <li>{@code <pre>} as a fenced code block, with its language from a {@code language-xxx} or
 *       {@code lang-xxx} class of the {@code <code>} in it or of the {@code <pre>}, else from a
 *       {@code highlight-xxx} class of the block around it (Sphinx); inline {@code code}, {@code
 *       kbd}, {@code samp}, {@code tt} as code spans; blockquotes; {@code strong}/{@code b}, {@code
 *       em}/{@code i}, {@code del}/{@code s}/{@code strike} as emphasis and strikethrough.
 *   <li>Links as {@code [text](absolute URL)}: the {@code href} resolved against the base URL as
 *       jsoup's {@code absUrl} resolves it; {@code javascript:}, {@code vbscript:} and {@code
 *       data:} links, and ones that do not resolve, become their text; a link without text is
 *       dropped; a link around blocks (a card: heading and excerpt) links each block's text.
 *   <li>Images as their {@code alt} text, never image markdown.
 *   <li>No HTML at all: {@code script}, {@code style}, {@code noscript}, {@code template}, embedded
 *       content ({@code iframe}, {@code object}, {@code svg}, {@code video}, …), form controls and
 *       elements with the {@code hidden} attribute are dropped; every other element is reduced to
 *       its content; a {@code <} in text is escaped, as is every character that would otherwise
 *       read as markdown. A {@code <form>} is kept as the content it holds (some sites' pages are
 *       one form); only its controls go.
 *   <li>Whitespace normalized: runs of whitespace in text made one space, no whitespace at either
 *       end of a line, one blank line between blocks, none at either end; a code block's lines kept
 *       as they are, less their trailing whitespace.
 * </ul>
 *
 * <p>Bounded: at most {@code maxChars} characters (UTF-16 code units, as the document's text is
 * bounded). The markdown ends at the last block that fits, a table at its last row that fits, and
 * the conversion stops there; when not even the first block fits, it is cut at {@code maxChars}
 * (never splitting a surrogate pair). Either way {@link #truncated()} says so.
 *
 * @param markdown the markdown, empty when the content has no text
 * @param truncated whether content was left out to keep within the bound
 */
public record PageMarkdown(String markdown, boolean truncated) {

  /** No content. */
  public static final PageMarkdown EMPTY = new PageMarkdown("", false);

  /**
   * The content's markdown. Reads the tree and never changes it. Thread-safe: each call has its own
   * state.
   *
   * @param content the main content: the element {@link MainContent} chose, boilerplate dropped
   * @param baseUrl the URL relative links are resolved against: the page's {@code <base href>},
   *     resolved, else its URL ({@code document.baseUri()} of a page parsed with its URL)
   * @param maxChars the longest markdown kept, in characters, at least 0
   */
  public static PageMarkdown of(Element content, String baseUrl, int maxChars) {
    if (maxChars < 0) {
      throw new IllegalArgumentException("maxChars must be at least 0: " + maxChars);
    }
    return MarkdownWriter.convert(content, baseUrl, maxChars);
  }
}
