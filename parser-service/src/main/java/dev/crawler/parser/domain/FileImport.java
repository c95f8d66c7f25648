package dev.crawler.parser.domain;

import java.time.Instant;
import java.util.Optional;

/**
 * What importing a file (a PDF, an office or OpenDocument file, RTF, EPUB) gave: its content as
 * XHTML and what it says of itself, or the reason it could not be imported (import step,
 * REJECTED_IMPORT). The parser reads the XHTML as it reads a page ({@link PageParser#parseFile}).
 */
public sealed interface FileImport {

  /**
   * A file's content extracted.
   *
   * @param contentType the media type the file was read as (detected from its bytes)
   * @param xhtml its content as XHTML: text in paragraphs, its hyperlinks as {@code <a href>} (a
   *     PDF's link annotations, an office document's hyperlinks)
   * @param title the title its metadata names
   * @param author the author its metadata names
   * @param createdAt when it says it was created
   * @param modifiedAt when it says it was last modified
   * @param pageCount its pages, when its format counts them
   * @param language the language its metadata declares
   * @param truncated whether its text was cut at the parser's text limit
   */
  record Extracted(
      String contentType,
      String xhtml,
      Optional<String> title,
      Optional<String> author,
      Optional<Instant> createdAt,
      Optional<Instant> modifiedAt,
      Optional<Integer> pageCount,
      Optional<String> language,
      boolean truncated)
      implements FileImport {}

  /**
   * A file not imported, the detail saying why: {@code TIKA_TIMEOUT after 30 s}, {@code
   * TIKA_OUT_OF_MEMORY …}, {@code TIKA_CRASH …}, {@code TIKA_ERROR …}, {@code INFLATION_LIMIT …}.
   */
  record Failed(String detail) implements FileImport {}
}
