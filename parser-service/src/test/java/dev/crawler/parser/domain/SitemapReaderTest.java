package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class SitemapReaderTest {

  private final SitemapReader reader = new SitemapReader();

  private static final String URLSET =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
        <url><loc>http://a.example/one</loc><lastmod>2026-11-20T10:00:00Z</lastmod><changefreq>daily</changefreq><priority>0.8</priority></url>
        <url><loc>http://a.example/two</loc></url>
      </urlset>
      """;

  @Test
  void readsTheUrlsOfAnXmlSitemapWithTheirHints() {
    SitemapReader.Read read =
        (SitemapReader.Read)
            reader.read(
                "http://a.example/sitemap.xml", Optional.of("application/xml"), bytes(URLSET));

    assertThat(read.entries())
        .extracting(SitemapReader.Entry::url)
        .containsExactly("http://a.example/one", "http://a.example/two");
    SitemapReader.Entry one = read.entries().get(0);
    assertThat(one.isSitemap()).isFalse();
    assertThat(one.lastModified()).contains(Instant.parse("2026-11-20T10:00:00Z"));
    assertThat(one.changeFrequency()).contains("daily");
    assertThat(one.priority()).hasValue(0.8);
    assertThat(read.entries().get(1).lastModified()).isEmpty();
  }

  @Test
  void readsTheSitemapsOfAnIndex() {
    String index =
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
          <sitemap><loc>http://a.example/sitemap-1.xml.gz</loc></sitemap>
          <sitemap><loc>http://a.example/sitemap-2.xml</loc></sitemap>
        </sitemapindex>
        """;

    SitemapReader.Read read =
        (SitemapReader.Read)
            reader.read("http://a.example/sitemap.xml", Optional.of("text/xml"), bytes(index));

    assertThat(read.kind()).isEqualTo("sitemap index");
    assertThat(read.entries())
        .extracting(SitemapReader.Entry::url)
        .containsExactly("http://a.example/sitemap-1.xml.gz", "http://a.example/sitemap-2.xml");
    assertThat(read.entries()).allMatch(SitemapReader.Entry::isSitemap);
  }

  @Test
  void readsATextSitemap() {
    SitemapReader.Read read =
        (SitemapReader.Read)
            reader.read(
                "http://a.example/sitemap.txt",
                Optional.of("text/plain"),
                bytes("http://a.example/x\nhttp://a.example/y\n"));

    assertThat(read.entries())
        .extracting(SitemapReader.Entry::url)
        .containsExactly("http://a.example/x", "http://a.example/y");
  }

  @Test
  void readsAGzippedSitemap() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(bytes(URLSET));
    }

    SitemapReader.Read read =
        (SitemapReader.Read)
            reader.read(
                "http://a.example/sitemap.xml.gz",
                Optional.of("application/gzip"),
                out.toByteArray());

    assertThat(read.entries()).hasSize(2);
  }

  @Test
  void readsAnRssFeed() {
    String rss =
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>t</title><item><link>http://a.example/post</link><pubDate>Fri, 20 Nov 2026 10:00:00 GMT</pubDate></item></channel></rss>";

    SitemapReader.Read read =
        (SitemapReader.Read)
            reader.read("http://a.example/feed", Optional.of("application/rss+xml"), bytes(rss));

    assertThat(read.entries())
        .extracting(SitemapReader.Entry::url)
        .containsExactly("http://a.example/post");
  }

  @Test
  void saysWhenTheBodyIsNoSitemap() {
    assertThat(
            reader.read(
                "http://a.example/sitemap.xml",
                Optional.of("text/html"),
                bytes("<html><body>404</body></html>")))
        .isInstanceOf(SitemapReader.Unreadable.class);
    assertThat(
            reader.read(
                "http://a.example/sitemap.xml",
                Optional.of("application/xml"),
                bytes("<notasitemap/>")))
        .isInstanceOf(SitemapReader.Unreadable.class);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aGzippedSitemapIsInflatedWithinTheBound() throws Exception {
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
      gzip.write(bytes(URLSET));
    }

    assertThat(
            reader.read(
                "http://a.example/sitemap.xml.gz",
                Optional.of("application/gzip"),
                zipped.toByteArray()))
        .isInstanceOfSatisfying(
            SitemapReader.Read.class, read -> assertThat(read.entries()).isNotEmpty());
  }

  @Test
  void aGzipBombIsNotRead() throws Exception {
    // 60 MB of spaces in ~60 KB: more than the 50 MB a sitemap may have uncompressed
    ByteArrayOutputStream zipped = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(zipped)) {
      byte[] spaces = new byte[1024 * 1024];
      Arrays.fill(spaces, (byte) ' ');
      for (int i = 0; i < 60; i++) {
        gzip.write(spaces);
      }
    }

    assertThat(
            reader.read("http://a.example/sitemap.xml.gz", Optional.empty(), zipped.toByteArray()))
        .isInstanceOfSatisfying(
            SitemapReader.Unreadable.class,
            unreadable -> assertThat(unreadable.detail()).contains("larger than 52428800"));
  }

  @Test
  void readsTheFirstFiftyThousandUrlsOfASitemap() {
    StringBuilder list = new StringBuilder();
    for (int i = 0; i <= SitemapReader.MAX_ENTRIES; i++) {
      list.append("http://a.example/p").append(i).append('\n');
    }

    SitemapReader.Read read =
        (SitemapReader.Read)
            reader.read(
                "http://a.example/sitemap.txt",
                Optional.of("text/plain"),
                list.toString().getBytes(StandardCharsets.UTF_8));

    assertThat(read.entries()).hasSize(SitemapReader.MAX_ENTRIES);
    assertThat(read.listed()).isGreaterThanOrEqualTo(SitemapReader.MAX_ENTRIES);
  }
}
