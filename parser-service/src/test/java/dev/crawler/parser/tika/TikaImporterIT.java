package dev.crawler.parser.tika;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.parser.domain.FileImport;
import dev.crawler.parser.domain.Link;
import dev.crawler.parser.domain.Page;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.parser.domain.ParseResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Real files through real forked Tika processes: the files under {@code files/} were made from
 * {@code report.html} (text written for the project) by LibreOffice 7.4; {@code report.pdf.txt} is
 * poppler's {@code pdftotext} of {@code report.pdf}.
 */
class TikaImporterIT {

  private static final String TITLE = "Annual Report of the Harbour Library";
  private static final String FIRST =
      "The Harbour Library lent 48,213 books this year, eleven percent more than last year.";
  private static final String LAST = "The full accounts are in the accounts for 2024.";

  private static final long MIB = 1024 * 1024;

  @TempDir static Path work;

  private static TikaImporter importer;
  private static final PageParser PARSER = PageParser.withDefaults();

  /**
   * The import timeout: a file refused by a rule (its detail says which) is refused before it,
   * whatever else the machine is doing.
   */
  private static final Duration IMPORT_TIMEOUT = Duration.ofSeconds(20);

  @BeforeAll
  static void start() {
    importer =
        TikaImporter.start(
            new TikaImporter.Settings(
                work.resolve("import"), 1, IMPORT_TIMEOUT, 256, 1_000_000, 64 * MIB));
  }

  @AfterAll
  static void stop() {
    importer.close();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "report.pdf, application/pdf, application/pdf",
    "report.docx, application/vnd.openxmlformats-officedocument.wordprocessingml.document,"
        + " application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "report.odt, application/vnd.oasis.opendocument.text, application/vnd.oasis.opendocument.text",
    "report.doc, application/msword, application/msword",
    "report.rtf, application/rtf, application/rtf",
    "report.epub, application/epub+zip, application/epub+zip",
  })
  void importsTheTextTitleAndLinksOfEachFormat(String file, String servedAs, String readAs) {
    ParseResult.Parsed parsed = parse(file, servedAs);

    assertThat(parsed.contentType()).isEqualTo(readAs);
    assertThat(parsed.text()).contains(FIRST, LAST).doesNotContain("https://");
    assertThat(parsed.links())
        .extracting(Link::url)
        .contains("https://library.example/maritime", "https://library.example/accounts-2024");
    assertThat(parsed.language().detected()).contains("en");
    assertThat(parsed.contentChecksum()).hasSize(64);
  }

  @Test
  void readsWhatAPdfSaysOfItself() {
    ParseResult.Parsed parsed = parse("report.pdf", "application/pdf");

    assertThat(parsed.title()).contains(TITLE);
    assertThat(parsed.file().author()).contains("Ada Fenwick");
    assertThat(parsed.file().pageCount()).contains(2);
    assertThat(parsed.file().createdAt())
        .hasValueSatisfying(
            created -> assertThat(created).isAfter(Instant.parse("2026-01-01T00:00:00Z")));
    assertThat(parsed.publishedAt()).isEqualTo(parsed.file().createdAt());
  }

  @Test
  void readsAPdfsTextAsPdftotextDoes() {
    String reference = new String(bytes("report.pdf.txt"), StandardCharsets.UTF_8);

    assertThat(parse("report.pdf", "application/pdf").text())
        .isEqualTo(PageParser.collapseWhitespace(reference));
  }

  @Test
  void readsAnOfficeDocumentsMetadata() {
    ParseResult.Parsed parsed =
        parse(
            "report.docx",
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document");

    assertThat(parsed.title()).contains(TITLE);
    assertThat(parsed.file().author()).contains("Ada Fenwick");
  }

  @Test
  void refusesADecompressionBombBeforeAnyParserReadsIt() {
    byte[] bomb = HostilePdfs.bomb(100 * MIB);
    long startedAt = System.nanoTime();

    FileImport imported = importer.importFile("http://a.example/bomb.pdf", "application/pdf", bomb);

    assertThat(imported)
        .isEqualTo(
            new FileImport.Failed(
                "INFLATION_LIMIT: its compressed streams inflate to more than 64 MiB"
                    + " (parser.import.max.inflated.bytes)"));
    assertThat(Duration.ofNanos(System.nanoTime() - startedAt)).isLessThan(IMPORT_TIMEOUT);
  }

  @Test
  void aStackOverflowEndsTheImportNotTheService() {
    FileImport imported =
        importer.importFile(
            "http://a.example/deep.pdf", "application/pdf", HostilePdfs.deepPageTree(100_000));

    assertThat(imported).isInstanceOf(FileImport.Failed.class);
    assertThat(((FileImport.Failed) imported).detail()).startsWith("TIKA_CRASH");
    // the next file is read by a new import process
    assertThat(parse("report.pdf", "application/pdf").text()).contains(FIRST);
  }

  @Test
  void refusesATruncatedFile() {
    byte[] whole = bytes("report.pdf");

    FileImport imported =
        importer.importFile(
            "http://a.example/cut.pdf", "application/pdf", Arrays.copyOf(whole, whole.length / 2));

    assertThat(imported).isInstanceOf(FileImport.Failed.class);
    assertThat(((FileImport.Failed) imported).detail()).startsWith("TIKA_ERROR");
  }

  @Test
  void refusesRandomBytesServedAsAPdfQuickly() {
    byte[] random = new byte[40_000];
    new Random(3).nextBytes(random);
    byte[] named = new byte[random.length + 9];
    System.arraycopy("%PDF-1.4\n".getBytes(StandardCharsets.US_ASCII), 0, named, 0, 9);
    System.arraycopy(random, 0, named, 9, random.length);
    importer.importFile("http://a.example/warm.pdf", "application/pdf", bytes("report.pdf"));
    long startedAt = System.nanoTime();

    FileImport imported = importer.importFile("http://a.example/r.pdf", "application/pdf", named);

    assertThat(imported).isInstanceOf(FileImport.Failed.class);
    assertThat(((FileImport.Failed) imported).detail()).startsWith("TIKA_ERROR");
    assertThat(Duration.ofNanos(System.nanoTime() - startedAt)).isLessThan(IMPORT_TIMEOUT);
  }

  @Test
  void stopsAnImportThatOutlastsItsTime() {
    // a bomb under this importer's inflation limit, read to its end in seconds, beyond its 1 s
    try (TikaImporter slow =
        TikaImporter.start(
            new TikaImporter.Settings(
                work.resolve("slow"), 1, Duration.ofSeconds(1), 256, 1_000_000, 4096 * MIB))) {
      FileImport imported =
          slow.importFile(
              "http://a.example/slow.pdf", "application/pdf", HostilePdfs.bomb(1024 * MIB));

      assertThat(imported)
          .isEqualTo(
              new FileImport.Failed(
                  "TIKA_TIMEOUT after 1 s (parser.import.timeout.ms); its import process was stopped"));
      assertThat(
              slow.importFile("http://a.example/next.pdf", "application/pdf", bytes("report.pdf")))
          .isInstanceOf(FileImport.Extracted.class);
    }
  }

  private static ParseResult.Parsed parse(String file, String mediaType) {
    String url = "http://a.example/files/" + file;
    FileImport imported = importer.importFile(url, mediaType, bytes(file));
    assertThat(imported).as(imported.toString()).isInstanceOf(FileImport.Extracted.class);
    return (ParseResult.Parsed)
        PARSER.parseFile(
            new Page(url, Map.of(), bytes(file), Optional.of(mediaType), Optional.empty()),
            (FileImport.Extracted) imported);
  }

  private static byte[] bytes(String file) {
    try (InputStream in = TikaImporterIT.class.getResourceAsStream("/files/" + file)) {
      if (in == null) {
        throw new IllegalArgumentException("no test file " + file);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
