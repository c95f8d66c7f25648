package dev.crawler.cli.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.cli.CrawlerCli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.common.PDRectangle;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;
import org.apache.pdfbox.pdmodel.interactive.action.PDActionURI;
import org.apache.pdfbox.pdmodel.interactive.annotation.PDAnnotationLink;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A site that mixes HTML pages with a PDF (made here, with a link to a page of the site), a Word
 * and an OpenDocument file (made by LibreOffice, the parser's test files), a PDF served as {@code
 * application/octet-stream}, a decompression bomb and random bytes named {@code .pdf}, crawled with
 * the one line of {@code crawl.yaml} that lets file links through: every file published as a page
 * is, with its text, title and language; the page the PDF links to crawled; the bomb and the random
 * bytes refused with their reasons while the rest flows.
 */
class ImportIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path FILES =
      Path.of("..", "parser-service", "src", "test", "resources", "files");

  @TempDir Path work;

  @RegisterExtension final EditableSite site = new EditableSite();

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void importsFilesBesidePagesAndRefusesTheHostileOnes() throws Exception {
    site.pages()
        .put(
            "/",
            EditableSite.page(
                "Home",
                "<a href=\"/figures.pdf\">figures</a> <a href=\"/report.docx\">docx</a>"
                    + " <a href=\"/report.odt\">odt</a> <a href=\"/download?id=7\">download</a>"
                    + " <a href=\"/bomb.pdf\">bomb</a> <a href=\"/noise.pdf\">noise</a>"
                    + " <a href=\"/about\">about</a>"));
    site.pages().put("/about", EditableSite.page("About", "An ordinary page about the site."));
    site.pages()
        .put("/from-pdf", EditableSite.page("Found in a PDF", "The PDF links to this page."));
    byte[] figures =
        pdf(
            "Quarterly Figures",
            "The harbour handled more ships this quarter than in any quarter before.",
            site.url() + "/from-pdf");
    site.files().put("/figures.pdf", new EditableSite.File("application/pdf", figures));
    byte[] tides =
        pdf("Tide Tables", "High water at noon and at midnight all week.", site.url() + "/about");
    site.files().put("/download?id=7", new EditableSite.File("application/octet-stream", tides));
    site.files()
        .put(
            "/report.docx",
            new EditableSite.File(
                "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
                Files.readAllBytes(FILES.resolve("report.docx"))));
    site.files()
        .put(
            "/report.odt",
            new EditableSite.File(
                "application/vnd.oasis.opendocument.text",
                Files.readAllBytes(FILES.resolve("report.odt"))));
    site.files().put("/bomb.pdf", new EditableSite.File("application/pdf", bomb(300L << 20)));
    byte[] noise = new byte[20_000];
    new Random(11).nextBytes(noise);
    System.arraycopy("%PDF-1.4\n".getBytes(StandardCharsets.US_ASCII), 0, noise, 0, 9);
    site.files().put("/noise.pdf", new EditableSite.File("application/pdf", noise));
    // the one line that imports files whose links name them (the default skips pdf, doc, docx …)
    Path config =
        Files.writeString(work.resolve("crawl.yaml"), "global: {ignore-extensions: []}\n");

    int exit =
        CrawlerCli.run(
            new String[] {
              "crawl",
              site.url() + "/",
              "--config",
              config.toString(),
              "--delay-ms",
              "0",
              "--data-dir",
              work.resolve("data").toString(),
              "--out",
              work.resolve("documents.jsonl").toString(),
              "--crawl-log",
              work.resolve("log.jsonl").toString()
            });

    assertThat(exit).isZero();
    Map<String, JsonNode> documents = new TreeMap<>();
    for (JsonNode line : lines(work.resolve("documents.jsonl"))) {
      documents.put(line.get("url").asText(), line);
    }
    // the Word and the OpenDocument file hold the same text: the second one is a duplicate
    assertThat(documents.keySet())
        .containsAll(
            List.of(
                site.url() + "/",
                site.url() + "/about",
                site.url() + "/from-pdf",
                site.url() + "/figures.pdf",
                site.url() + "/download?id=7"))
        .containsAnyOf(site.url() + "/report.docx", site.url() + "/report.odt")
        .hasSize(6);
    JsonNode pdf = documents.get(site.url() + "/figures.pdf");
    assertThat(pdf.get("title").asText()).isEqualTo("Quarterly Figures");
    assertThat(pdf.get("contentType").asText()).isEqualTo("application/pdf");
    assertThat(pdf.get("author").asText()).isEqualTo("Harbour Office");
    assertThat(pdf.get("filePageCount").asInt()).isEqualTo(1);
    assertThat(pdf.get("language").asText()).isEqualTo("en");
    assertThat(pdf.get("text").asText())
        .isEqualTo("The harbour handled more ships this quarter than in any quarter before.");
    JsonNode download = documents.get(site.url() + "/download?id=7");
    assertThat(download.get("title").asText())
        .as("a PDF served as octet-stream")
        .isEqualTo("Tide Tables");
    assertThat(download.get("contentType").asText()).isEqualTo("application/pdf");
    JsonNode office =
        documents.getOrDefault(
            site.url() + "/report.docx", documents.get(site.url() + "/report.odt"));
    assertThat(office.get("title").asText()).isEqualTo("Annual Report of the Harbour Library");
    assertThat(office.get("author").asText()).isEqualTo("Ada Fenwick");
    assertThat(office.get("text").asText()).contains("The Harbour Library lent 48,213 books");
    assertThat(office.get("language").asText()).isEqualTo("en");
    Map<String, JsonNode> log = new TreeMap<>();
    for (JsonNode line : lines(work.resolve("log.jsonl"))) {
      log.put(line.get("url").asText() + " " + line.get("outcome").asText(), line);
    }
    assertThat(log.keySet())
        .containsAnyOf(site.url() + "/report.docx DUPLICATE", site.url() + "/report.odt DUPLICATE");
    assertThat(log.get(site.url() + "/bomb.pdf IMPORT_REJECTED").get("detail").asText())
        .startsWith("INFLATION_LIMIT");
    assertThat(log.get(site.url() + "/noise.pdf IMPORT_REJECTED").get("detail").asText())
        .startsWith("TIKA_ERROR");
  }

  /** A one-page PDF with a title, an author, a line of text and a link annotation. */
  private static byte[] pdf(String title, String text, String link) throws IOException {
    try (PDDocument document = new PDDocument()) {
      PDPage page = new PDPage();
      document.addPage(page);
      try (PDPageContentStream content = new PDPageContentStream(document, page)) {
        content.beginText();
        content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
        content.newLineAtOffset(72, 700);
        content.showText(text);
        content.endText();
      }
      PDAnnotationLink annotation = new PDAnnotationLink();
      annotation.setRectangle(new PDRectangle(72, 650, 200, 20));
      PDActionURI action = new PDActionURI();
      action.setURI(link);
      annotation.setAction(action);
      page.getAnnotations().add(annotation);
      document.getDocumentInformation().setTitle(title);
      document.getDocumentInformation().setAuthor("Harbour Office");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      document.save(out);
      return out.toByteArray();
    }
  }

  /** A PDF whose one content stream inflates to {@code bytes} zeros. */
  private static byte[] bomb(long bytes) {
    ByteArrayOutputStream deflated = new ByteArrayOutputStream();
    try (DeflaterOutputStream out =
        new DeflaterOutputStream(deflated, new Deflater(Deflater.BEST_COMPRESSION), 1 << 16)) {
      byte[] chunk = new byte[1 << 20];
      for (long written = 0; written < bytes; written += chunk.length) {
        out.write(chunk);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ByteArrayOutputStream pdf = new ByteArrayOutputStream();
    pdf.writeBytes(
        ("%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n"
                + "2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n"
                + "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>\nendobj\n"
                + "4 0 obj\n<< /Length "
                + deflated.size()
                + " /Filter /FlateDecode >>\nstream\n")
            .getBytes(StandardCharsets.ISO_8859_1));
    pdf.writeBytes(deflated.toByteArray());
    pdf.writeBytes(
        "\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"
            .getBytes(StandardCharsets.ISO_8859_1));
    return pdf.toByteArray();
  }

  private static List<JsonNode> lines(Path file) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }
}
