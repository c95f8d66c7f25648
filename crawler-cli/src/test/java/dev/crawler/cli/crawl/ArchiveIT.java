package dev.crawler.cli.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.cli.CrawlerCli;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRequest;
import org.netpreserve.jwarc.WarcResponse;

/**
 * {@code crawler crawl --warc DIR} on a site with a gzipped page sent chunked, a plain page, a
 * redirect recorded, a 404 and no robots.txt: every exchange is in the archive once (request and
 * response), the files pass jwarc's own {@code validate} (run as the tool it is, in a process of
 * its own), and the archive replays each response as the site sent it, byte for byte.
 */
class ArchiveIT {

  private static final byte[] GZIPPED =
      "<html><head><title>Compressed</title></head><body><p>sent gzipped, in chunks</p><a href=\"/plain\">plain</a></body></html>"
          .repeat(20)
          .getBytes(StandardCharsets.UTF_8);

  @TempDir Path work;

  @RegisterExtension final EditableSite site = new EditableSite();

  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void archivesEveryExchangeOnceAndReplaysItAsSent() throws Exception {
    site.pages()
        .put(
            "/",
            EditableSite.page(
                "Home",
                "<a href=\"/gz\">gz</a> <a href=\"/plain\">plain</a> <a href=\"/missing\">missing</a>"
                    + " <a href=\"/moved\">moved</a>"));
    site.pages().put("/plain", EditableSite.page("Plain", "a plain page"));
    byte[] compressed = gzip(GZIPPED);
    site.files()
        .put(
            "/gz",
            new EditableSite.File(
                "text/html; charset=UTF-8", compressed, Map.of("Content-Encoding", "gzip"), true));
    site.files()
        .put(
            "/moved",
            new EditableSite.File("text/html", new byte[0], Map.of("Location", "/plain"), false));
    Path warc = work.resolve("warc");

    int exit =
        CrawlerCli.run(
            new String[] {
              "crawl",
              site.url() + "/",
              "--delay-ms",
              "0",
              "--data-dir",
              work.resolve("data").toString(),
              "--warc",
              warc.toString()
            });

    assertThat(exit).isZero();
    List<Path> files;
    try (Stream<Path> listed = Files.list(warc)) {
      files = listed.sorted().toList();
    }
    assertThat(files).isNotEmpty().allMatch(f -> f.toString().endsWith(".warc.gz"));
    assertThat(validate(files)).as("jwarc validate").isZero();

    Map<String, Integer> responses = new HashMap<>();
    Map<String, byte[]> bodies = new HashMap<>();
    Map<String, Integer> statuses = new HashMap<>();
    Map<String, String> encodings = new HashMap<>();
    Set<String> requests = new HashSet<>();
    Set<String> ids = new HashSet<>();
    for (Path file : files) {
      try (WarcReader reader = new WarcReader(file)) {
        for (WarcRecord record : reader) {
          assertThat(ids.add(record.id().toString())).as("record ids unique").isTrue();
          if (record instanceof WarcResponse response) {
            String url = response.target();
            responses.merge(url, 1, Integer::sum);
            statuses.put(url, response.http().status());
            response
                .http()
                .headers()
                .first("Content-Encoding")
                .ifPresent(e -> encodings.put(url, e));
            bodies.put(url, response.http().body().stream().readAllBytes());
          } else if (record instanceof WarcRequest request) {
            requests.add(request.target());
            assertThat(((WarcCaptureRecord) record).ipAddress()).isPresent();
          }
        }
      }
    }
    String base = site.url();
    assertThat(responses)
        .containsEntry(base + "/", 1)
        .containsEntry(base + "/gz", 1)
        .containsEntry(base + "/plain", 1)
        .containsEntry(base + "/missing", 1)
        .containsEntry(base + "/moved", 1)
        .containsEntry(base + "/robots.txt", 1);
    assertThat(requests).containsAll(responses.keySet());
    assertThat(statuses.get(base + "/missing")).isEqualTo(404);
    assertThat(statuses.get(base + "/robots.txt")).isEqualTo(404);
    assertThat(statuses.get(base + "/moved"))
        .isEqualTo(200)
        .as("served as a file with a Location only");
    // replayed as sent: the compressed bytes of the chunked page, the plain page's HTML
    assertThat(encodings).containsEntry(base + "/gz", "gzip");
    assertThat(bodies.get(base + "/gz")).isEqualTo(compressed);
    assertThat(new String(bodies.get(base + "/plain"), StandardCharsets.UTF_8))
        .isEqualTo(EditableSite.page("Plain", "a plain page"));

    // crawler archive ls / show
    String listed = output("archive", "ls", base + "/gz", "--warc", warc.toString());
    assertThat(listed.lines()).hasSize(3); // its request, its response, its outlinks
    assertThat(listed).contains("request", "response", " 200 ", "metadata");
    String shown = output("archive", "show", base + "/gz", "--warc", warc.toString());
    assertThat(shown)
        .startsWith("HTTP/1.1 200 OK\r\n")
        .contains("Content-Encoding: gzip\r\n", "X-Crawler-Transfer-Encoding: chunked\r\n")
        .endsWith(new String(GZIPPED, StandardCharsets.UTF_8));
    assertThat(CrawlerCli.run("archive", "ls", base + "/nowhere", "--warc", warc.toString()))
        .isEqualTo(1);
  }

  /** What a {@code crawler} command prints on its standard output. */
  private static String output(String... args) {
    PrintStream console = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      assertThat(CrawlerCli.run(args)).as(String.join(" ", args)).isZero();
    } finally {
      System.setOut(console);
    }
    return printed.toString(StandardCharsets.UTF_8);
  }

  /** jwarc's own validator, as a command of its own; its exit code. */
  static int validate(List<Path> files) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("org.netpreserve.jwarc.tools.WarcTool");
    command.add("validate");
    files.forEach(file -> command.add(file.toString()));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int exit = process.waitFor();
    if (exit != 0 || output.contains("ERROR")) {
      // jwarc's validate prints some errors (of the WARC header rules) and still exits 0
      System.err.println("jwarc validate said:\n" + output);
      return exit != 0 ? exit : 1;
    }
    return exit;
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(bytes);
    }
    return out.toByteArray();
  }
}
