package dev.crawler.parser.bench;

import dev.crawler.parser.domain.PageMarkdown;
import dev.crawler.parser.domain.StructuredData;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * Prints the CPU one thread spends per page on the parsed document's markdown ({@link
 * PageMarkdown}) and structured data ({@link StructuredData}), beside jsoup's parse of the same
 * pages, on the HTML files of a directory between 30 and 100 KB (Debian's {@code python3-doc} is a
 * realistic documentation site: {@code java ... DocumentPartsBenchmark
 * /usr/share/doc/python3-doc/html [PAGES]}).
 *
 * <p>Those pages state no structured data, so each is measured twice for it: as it is (the cost of
 * looking), and with the head a news or blog page carries added (a 3 KB JSON-LD {@code @graph} as
 * publishing plugins write it, Open Graph and Twitter tags), so the parse is measured too.
 */
public final class DocumentPartsBenchmark {

  private static final int ROUNDS = 5;

  public static void main(String[] args) throws IOException {
    Path root = Path.of(args[0]).toRealPath();
    int limit = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
    List<String> htmls = new ArrayList<>();
    List<String> urls = new ArrayList<>();
    long bytes = 0;
    try (Stream<Path> files = Files.walk(root)) {
      for (Path file : (Iterable<Path>) files.sorted()::iterator) {
        long size = Files.isRegularFile(file) ? Files.size(file) : 0;
        if (file.toString().endsWith(".html")
            && size >= 30_000
            && size <= 100_000
            && htmls.size() < limit) {
          htmls.add(Files.readString(file, StandardCharsets.UTF_8));
          urls.add("https://docs.example/" + root.relativize(file).toString().replace('\\', '/'));
          bytes += size;
        }
      }
    }
    System.out.printf(
        Locale.ROOT,
        "%d pages, %.1f KB of HTML on average%n",
        htmls.size(),
        bytes / 1024.0 / htmls.size());
    List<Document> documents = new ArrayList<>();
    List<Document> withHeads = new ArrayList<>();
    for (int i = 0; i < htmls.size(); i++) {
      documents.add(Jsoup.parse(htmls.get(i), urls.get(i)));
      withHeads.add(Jsoup.parse(withPublishingHead(htmls.get(i), urls.get(i)), urls.get(i)));
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int round = 1; round <= ROUNDS; round++) {
      long start = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < htmls.size(); i++) {
        Jsoup.parse(htmls.get(i), urls.get(i));
      }
      long parse = threads.getCurrentThreadCpuTime() - start;

      start = threads.getCurrentThreadCpuTime();
      long markdownChars = 0;
      int truncated = 0;
      for (Document document : documents) {
        PageMarkdown markdown = PageMarkdown.of(contentOf(document), document.baseUri(), 1_000_000);
        markdownChars += markdown.markdown().length();
        truncated += markdown.truncated() ? 1 : 0;
      }
      long markdown = threads.getCurrentThreadCpuTime() - start;

      start = threads.getCurrentThreadCpuTime();
      int none = 0;
      for (Document document : documents) {
        none += StructuredData.of(document).items().isEmpty() ? 1 : 0;
      }
      long looking = threads.getCurrentThreadCpuTime() - start;

      start = threads.getCurrentThreadCpuTime();
      int items = 0;
      for (Document document : withHeads) {
        items += StructuredData.of(document).items().size();
      }
      long reading = threads.getCurrentThreadCpuTime() - start;

      int pages = htmls.size();
      System.out.printf(
          Locale.ROOT,
          "round %d: jsoup parse %.3f ms | markdown %.3f ms (%d chars, %d truncated) |"
              + " structured data: none found %.3f ms (%d pages), with a publishing head %.3f ms"
              + " (%.1f items) — CPU per page%n",
          round,
          parse / 1e6 / pages,
          markdown / 1e6 / pages,
          markdownChars / pages,
          truncated,
          looking / 1e6 / pages,
          none,
          reading / 1e6 / pages,
          items / (double) pages);
    }
  }

  /** The main content as the default content options find it on these pages. */
  private static Element contentOf(Document document) {
    Element main = document.selectFirst("main, article, [role=main]");
    return main != null ? main : document.body();
  }

  /** The page with the head a news or blog page carries: JSON-LD graph, Open Graph, Twitter. */
  private static String withPublishingHead(String html, String url) {
    String head =
        """
        <meta property="og:locale" content="en_US"><meta property="og:type" content="article">
        <meta property="og:title" content="A page title that is long enough"><meta property="og:url" content="URL">
        <meta property="og:description" content="A description of the page of about two hundred characters, as publishing plugins write it from the excerpt of the article, cut at a word.">
        <meta property="og:site_name" content="Example Docs"><meta property="article:published_time" content="2024-03-05T10:00:00+00:00">
        <meta property="article:modified_time" content="2024-03-06T08:30:00+00:00"><meta property="og:image" content="URL/image.png">
        <meta property="og:image:width" content="1200"><meta property="og:image:height" content="630"><meta property="og:image:type" content="image/png">
        <meta name="twitter:card" content="summary_large_image"><meta name="twitter:site" content="@example">
        <meta name="twitter:label1" content="Written by"><meta name="twitter:data1" content="Jane Doe">
        <script type="application/ld+json">{"@context":"https://schema.org","@graph":[
        {"@type":"Article","@id":"URL#article","isPartOf":{"@id":"URL"},"author":{"name":"Jane Doe","@id":"https://docs.example/#/schema/person/1"},"headline":"A page title that is long enough","datePublished":"2024-03-05T10:00:00+00:00","dateModified":"2024-03-06T08:30:00+00:00","mainEntityOfPage":{"@id":"URL"},"wordCount":2412,"publisher":{"@id":"https://docs.example/#organization"},"image":{"@id":"URL#primaryimage"},"thumbnailUrl":"URL/image.png","keywords":["python","json","library"],"articleSection":["Library"],"inLanguage":"en-US"},
        {"@type":"WebPage","@id":"URL","url":"URL","name":"A page title that is long enough - Example Docs","isPartOf":{"@id":"https://docs.example/#website"},"primaryImageOfPage":{"@id":"URL#primaryimage"},"image":{"@id":"URL#primaryimage"},"thumbnailUrl":"URL/image.png","datePublished":"2024-03-05T10:00:00+00:00","dateModified":"2024-03-06T08:30:00+00:00","description":"A description of the page of about two hundred characters, as publishing plugins write it from the excerpt of the article, cut at a word.","breadcrumb":{"@id":"URL#breadcrumb"},"inLanguage":"en-US","potentialAction":[{"@type":"ReadAction","target":["URL"]}]},
        {"@type":"ImageObject","inLanguage":"en-US","@id":"URL#primaryimage","url":"URL/image.png","contentUrl":"URL/image.png","width":1200,"height":630},
        {"@type":"BreadcrumbList","@id":"URL#breadcrumb","itemListElement":[{"@type":"ListItem","position":1,"name":"Home","item":"https://docs.example/"},{"@type":"ListItem","position":2,"name":"Library","item":"https://docs.example/library/"},{"@type":"ListItem","position":3,"name":"A page title"}]},
        {"@type":"WebSite","@id":"https://docs.example/#website","url":"https://docs.example/","name":"Example Docs","description":"Documentation","publisher":{"@id":"https://docs.example/#organization"},"potentialAction":[{"@type":"SearchAction","target":{"@type":"EntryPoint","urlTemplate":"https://docs.example/?s={search_term_string}"},"query-input":{"@type":"PropertyValueSpecification","valueRequired":true,"valueName":"search_term_string"}}],"inLanguage":"en-US"},
        {"@type":"Organization","@id":"https://docs.example/#organization","name":"Example","url":"https://docs.example/","logo":{"@type":"ImageObject","inLanguage":"en-US","@id":"https://docs.example/#/schema/logo/image/","url":"https://docs.example/logo.png","contentUrl":"https://docs.example/logo.png","width":512,"height":512,"caption":"Example"},"image":{"@id":"https://docs.example/#/schema/logo/image/"},"sameAs":["https://social.example/example"]},
        {"@type":"Person","@id":"https://docs.example/#/schema/person/1","name":"Jane Doe","image":{"@type":"ImageObject","inLanguage":"en-US","@id":"https://docs.example/#/schema/person/image/","url":"https://secure.example/avatar.png","contentUrl":"https://secure.example/avatar.png","caption":"Jane Doe"},"url":"https://docs.example/author/jane/"}]}</script>
        """
            .replace("URL", url);
    int at = html.indexOf("</head>");
    return at < 0 ? head + html : html.substring(0, at) + head + html.substring(at);
  }
}
