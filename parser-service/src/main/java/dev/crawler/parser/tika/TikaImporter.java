package dev.crawler.parser.tika;

import dev.crawler.parser.domain.FileImport;
import dev.crawler.parser.domain.FileImporter;
import dev.crawler.parser.domain.PdfInflation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.tika.config.TikaTaskTimeout;
import org.apache.tika.exception.TikaConfigException;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.metadata.Office;
import org.apache.tika.metadata.PagedText;
import org.apache.tika.metadata.Property;
import org.apache.tika.metadata.TikaCoreProperties;
import org.apache.tika.mime.MimeTypeException;
import org.apache.tika.mime.MimeTypes;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.pdf.PDFParserConfig;
import org.apache.tika.pipes.FetchEmitTuple;
import org.apache.tika.pipes.HandlerConfig;
import org.apache.tika.pipes.PipesConfig;
import org.apache.tika.pipes.PipesException;
import org.apache.tika.pipes.PipesParser;
import org.apache.tika.pipes.PipesResult;
import org.apache.tika.pipes.emitter.EmitKey;
import org.apache.tika.pipes.fetcher.FetchKey;
import org.apache.tika.sax.BasicContentHandlerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Imports files through Apache Tika in processes of their own: Tika's pipes ({@link PipesParser}),
 * which run each parse in a forked JVM with a bounded heap and kill it when a parse outlasts its
 * time, so that no file can hang, exhaust or crash the parser service. No other class imports Tika.
 *
 * <ul>
 *   <li>A file is written to this importer's inbox (a directory of its work directory), named with
 *       the extension of its media type (the forked parser detects the type from the bytes and that
 *       name), read there by the forked JVM, and deleted once parsed.
 *   <li>The forked JVM answers with the file's content as XHTML (its hyperlinks as {@code <a
 *       href>}) and its metadata, its text cut at the parser's text limit.
 *   <li>Each of {@code processes} forked JVMs parses one file at a time: callers beyond that wait.
 *       A JVM starts on the first file it is given (about two seconds), parses up to 10,000 files,
 *       and stops after ten idle minutes; one that was killed (a timeout, an out-of-memory error, a
 *       crash) is started again for the next file.
 *   <li>A PDF whose compressed streams inflate beyond the limit, or that holds no PDF object at
 *       all, is refused before any parser reads it ({@link PdfInflation}).
 * </ul>
 *
 * <p>Thread-safe.
 */
public final class TikaImporter implements FileImporter {

  private static final Logger LOG = LoggerFactory.getLogger(TikaImporter.class);

  /** The fetcher name the forked JVMs read the inbox through. */
  private static final String FETCHER = "inbox";

  /** Files a forked JVM parses before it is replaced by a fresh one. */
  private static final int FILES_PER_PROCESS = 10_000;

  /**
   * How PDFs are read: the outline (bookmarks) is not text of its own (it repeats the headings),
   * and link annotations stay on (they are a PDF's hyperlinks).
   */
  private static final PDFParserConfig PDF = pdfConfig();

  private static PDFParserConfig pdfConfig() {
    PDFParserConfig config = new PDFParserConfig();
    config.setExtractBookmarksText(false);
    config.setExtractAnnotationText(true);
    config.setExtractInlineImages(false);
    return config;
  }

  /** Embedded documents (attachments, embedded spreadsheets) read per file at most. */
  private static final int MAX_EMBEDDED = 100;

  /**
   * What an import needs.
   *
   * @param workDirectory holds the importer's configuration and inbox; created, and deleted when
   *     the importer is closed
   * @param processes forked JVMs parsing at once
   * @param timeout the longest a file's parse may take
   * @param maxHeapMegabytes each forked JVM's heap
   * @param maxTextChars characters of text kept per file
   * @param maxInflatedBytes what a PDF's compressed streams may inflate to
   */
  public record Settings(
      Path workDirectory,
      int processes,
      Duration timeout,
      int maxHeapMegabytes,
      int maxTextChars,
      long maxInflatedBytes) {}

  private final Settings settings;
  private final Path inbox;
  private final PipesParser pipes;

  private TikaImporter(Settings settings, Path inbox, PipesParser pipes) {
    this.settings = settings;
    this.inbox = inbox;
    this.pipes = pipes;
  }

  /**
   * An importer with its configuration written; no JVM is forked before the first file.
   *
   * @throws UncheckedIOException when the work directory cannot be written
   */
  public static TikaImporter start(Settings settings) {
    try {
      Path work = Files.createDirectories(settings.workDirectory());
      Path inbox = Files.createDirectories(work.resolve("inbox"));
      Path tmp = Files.createDirectories(work.resolve("tmp"));
      Path logging = work.resolve("logback-import.xml");
      Files.writeString(logging, LOGGING, StandardCharsets.UTF_8);
      Path config = work.resolve("tika-config.xml");
      Files.writeString(
          config, configuration(settings, inbox, tmp, logging), StandardCharsets.UTF_8);
      PipesParser pipes = new PipesParser(PipesConfig.load(config));
      LOG.info(
          "File import through Apache Tika: {} process(es) of {} MB heap, {} s per file, in {}",
          settings.processes(),
          settings.maxHeapMegabytes(),
          settings.timeout().toSeconds(),
          work);
      return new TikaImporter(settings, inbox, pipes);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare " + settings.workDirectory(), e);
    } catch (TikaConfigException e) {
      throw new IllegalStateException("Tika refused the import configuration: " + e, e);
    }
  }

  /**
   * The forked JVMs' logging: warnings and errors on standard error, which the forked JVM shares
   * with the service.
   */
  private static final String LOGGING =
      """
      <configuration>
        <appender name="STDERR" class="ch.qos.logback.core.ConsoleAppender">
          <target>System.err</target>
          <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [tika-import] %logger{36} - %msg%n</pattern></encoder>
        </appender>
        <root level="WARN"><appender-ref ref="STDERR"/></root>
      </configuration>
      """;

  private static String configuration(Settings settings, Path inbox, Path tmp, Path logging) {
    List<String> jvm =
        List.of(
            "-Xmx" + settings.maxHeapMegabytes() + "m",
            "-XX:+UseSerialGC",
            "-XX:MaxMetaspaceSize=256m",
            "-XX:ReservedCodeCacheSize=96m",
            "-XX:MaxDirectMemorySize=64m",
            "-Djava.io.tmpdir=" + tmp,
            "-Dlogback.configurationFile=" + logging);
    StringBuilder arguments = new StringBuilder();
    jvm.forEach(
        argument -> arguments.append("        <arg>").append(xml(argument)).append("</arg>\n"));
    return String.format(
        Locale.ROOT,
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <properties>
          <fetchers>
            <fetcher class="org.apache.tika.pipes.fetcher.fs.FileSystemFetcher">
              <name>%s</name>
              <basePath>%s</basePath>
            </fetcher>
          </fetchers>
          <pipes>
            <params>
              <javaPath>%s</javaPath>
              <numClients>%d</numClients>
              <maxForEmitBatchBytes>-1</maxForEmitBatchBytes>
              <timeoutMillis>%d</timeoutMillis>
              <startupTimeoutMillis>120000</startupTimeoutMillis>
              <sleepOnStartupTimeoutMillis>5000</sleepOnStartupTimeoutMillis>
              <maxWaitForClientMillis>%d</maxWaitForClientMillis>
              <shutdownClientAfterMillis>600000</shutdownClientAfterMillis>
              <maxFilesProcessedPerProcess>%d</maxFilesProcessedPerProcess>
              <forkedJvmArgs>
        %s      </forkedJvmArgs>
            </params>
          </pipes>
        </properties>
        """,
        FETCHER,
        xml(inbox.toAbsolutePath().toString()),
        xml(Path.of(System.getProperty("java.home"), "bin", "java").toString()),
        settings.processes(),
        settings.timeout().toMillis(),
        // a caller waits for a process at most as long as the files before it may take
        settings.timeout().multipliedBy(4).plusSeconds(120).toMillis(),
        FILES_PER_PROCESS,
        arguments);
  }

  private static String xml(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalStateException when the calling thread is interrupted (the service stops): the
   *     file was not judged
   */
  @Override
  public FileImport importFile(String url, String mediaType, byte[] body) {
    if (mediaType.equals("application/pdf") && !PdfInflation.hasObjects(body)) {
      return new FileImport.Failed(
          "TIKA_ERROR: not a PDF (no PDF object in its " + body.length + " bytes)");
    }
    if (mediaType.equals("application/pdf")
        && PdfInflation.exceeds(body, settings.maxInflatedBytes())) {
      return new FileImport.Failed(
          "INFLATION_LIMIT: its compressed streams inflate to more than "
              + settings.maxInflatedBytes() / (1024 * 1024)
              + " MiB (parser.import.max.inflated.bytes)");
    }
    String name = UUID.randomUUID() + extensionOf(mediaType);
    Path file = inbox.resolve(name);
    try {
      Files.write(file, body);
      ParseContext context = new ParseContext();
      context.set(
          HandlerConfig.class,
          new HandlerConfig(
              BasicContentHandlerFactory.HANDLER_TYPE.XML,
              HandlerConfig.PARSE_MODE.CONCATENATE,
              settings.maxTextChars(),
              MAX_EMBEDDED,
              false));
      context.set(TikaTaskTimeout.class, new TikaTaskTimeout(settings.timeout().toMillis()));
      context.set(PDFParserConfig.class, PDF);
      PipesResult result =
          pipes.parse(
              new FetchEmitTuple(
                  name,
                  new FetchKey(FETCHER, name),
                  new EmitKey("", name),
                  new Metadata(),
                  context,
                  FetchEmitTuple.ON_PARSE_EXCEPTION.EMIT));
      return outcome(url, result);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while importing " + url, e);
    } catch (IOException | PipesException e) {
      return new FileImport.Failed("TIKA_ERROR: " + e);
    } finally {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        LOG.warn("cannot delete {} from the import inbox: {}", file, e.toString());
      }
    }
  }

  private FileImport outcome(String url, PipesResult result) {
    PipesResult.STATUS status = result.getStatus();
    switch (status) {
      case PARSE_SUCCESS -> {
        Metadata metadata = containerMetadata(result);
        return metadata == null
            ? new FileImport.Failed("TIKA_ERROR: no content")
            : extracted(metadata);
      }
      case TIMEOUT -> {
        return new FileImport.Failed(
            "TIKA_TIMEOUT after "
                + settings.timeout().toSeconds()
                + " s (parser.import.timeout.ms); its import process was stopped");
      }
      case OOM -> {
        return new FileImport.Failed(
            "TIKA_OUT_OF_MEMORY: more than the import process's "
                + settings.maxHeapMegabytes()
                + " MB heap (parser.import.max.heap.mb)");
      }
      case UNSPECIFIED_CRASH -> {
        LOG.warn("{}: the import process ended while reading it", url);
        return new FileImport.Failed(
            "TIKA_CRASH: the import process ended while reading it (a stack overflow or a crash)");
      }
      case INTERRUPTED_EXCEPTION -> {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while importing " + url);
      }
      default -> {
        Metadata metadata = containerMetadata(result);
        String exception =
            metadata == null ? null : metadata.get(TikaCoreProperties.CONTAINER_EXCEPTION);
        return new FileImport.Failed(
            "TIKA_ERROR: " + (exception != null ? firstLine(exception) : status.name()));
      }
    }
  }

  private static Metadata containerMetadata(PipesResult result) {
    if (result.getEmitData() == null
        || result.getEmitData().getMetadataList() == null
        || result.getEmitData().getMetadataList().isEmpty()) {
      return null;
    }
    return result.getEmitData().getMetadataList().get(0);
  }

  private static FileImport extracted(Metadata metadata) {
    String type = Optional.ofNullable(metadata.get(Metadata.CONTENT_TYPE)).orElse("");
    int parameters = type.indexOf(';');
    String contentType =
        (parameters < 0 ? type : type.substring(0, parameters)).strip().toLowerCase(Locale.ROOT);
    Optional<Integer> pages =
        Optional.ofNullable(metadata.getInt(PagedText.N_PAGES))
            .or(() -> Optional.ofNullable(metadata.getInt(Office.PAGE_COUNT)));
    return new FileImport.Extracted(
        contentType,
        Optional.ofNullable(metadata.get(TikaCoreProperties.TIKA_CONTENT)).orElse(""),
        nonBlank(metadata.get(TikaCoreProperties.TITLE)),
        nonBlank(String.join(", ", metadata.getValues(TikaCoreProperties.CREATOR))),
        date(metadata, TikaCoreProperties.CREATED),
        date(metadata, TikaCoreProperties.MODIFIED),
        pages.filter(count -> count > 0),
        nonBlank(metadata.get(TikaCoreProperties.LANGUAGE)),
        "true".equals(metadata.get(TikaCoreProperties.WRITE_LIMIT_REACHED)));
  }

  private static Optional<Instant> date(Metadata metadata, Property property) {
    try {
      return Optional.ofNullable(metadata.getDate(property)).map(Date::toInstant);
    } catch (RuntimeException e) {
      return Optional.empty(); // a date in a form no parser reads
    }
  }

  private static Optional<String> nonBlank(String value) {
    return Optional.ofNullable(value).map(String::strip).filter(text -> !text.isEmpty());
  }

  /** The first line of a stack trace: the exception and its message. */
  private static String firstLine(String stackTrace) {
    int end = stackTrace.indexOf('\n');
    String line = (end < 0 ? stackTrace : stackTrace.substring(0, end)).strip();
    return line.length() <= 500 ? line : line.substring(0, 500) + "…";
  }

  /** The file name extension of a media type ({@code .pdf}), or none when Tika knows none. */
  static String extensionOf(String mediaType) {
    try {
      return MimeTypes.getDefaultMimeTypes().forName(mediaType).getExtension();
    } catch (MimeTypeException e) {
      return "";
    }
  }

  /** Stops the forked JVMs and deletes the work directory. */
  @Override
  public void close() {
    try {
      pipes.close();
    } catch (IOException e) {
      LOG.warn("closing the import processes: {}", e.toString());
    }
    try (Stream<Path> files = Files.walk(settings.workDirectory())) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      LOG.warn("cannot delete {}: {}", settings.workDirectory(), e.toString());
    }
  }
}
