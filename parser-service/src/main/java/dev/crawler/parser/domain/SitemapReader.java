package dev.crawler.parser.domain;

import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapIndex;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;
import crawlercommons.sitemaps.UnknownFormatException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.zip.GZIPInputStream;

/**
 * Reads a sitemap (sitemaps.org XML, a sitemap index, a text list of URLs, RSS or Atom, gzipped or
 * not) with crawler-commons' {@link SiteMapParser}: the URLs it lists with their {@code lastmod},
 * {@code changefreq} and {@code priority}, which the recrawl scheduler uses, and the sitemaps an
 * index lists. URLs of other hosts are kept (robots.txt may name a sitemap elsewhere); the
 * frontier's scope decides about them. Thread-safe.
 */
public final class SitemapReader {

  /** The most URLs (or sitemaps) one sitemap lists (sitemaps.org): the rest are not read. */
  public static final int MAX_ENTRIES = 50_000;

  /** The largest sitemap, uncompressed (sitemaps.org): a larger one is not read. */
  public static final int MAX_BYTES = 50 * 1024 * 1024;

  /** One entry of a sitemap. */
  public record Entry(
      String url,
      boolean isSitemap,
      Optional<Instant> lastModified,
      Optional<String> changeFrequency,
      OptionalDouble priority) {}

  /** What a sitemap gave: its entries, or why it could not be read. */
  public sealed interface Result {}

  /**
   * The sitemap's entries, in document order, the first {@link #MAX_ENTRIES}.
   *
   * @param listed how many entries the sitemap listed, those beyond the bound included
   */
  public record Read(List<Entry> entries, String kind, int listed) implements Result {

    public Read(List<Entry> entries, String kind) {
      this(entries, kind, entries.size());
    }
  }

  /** The body is not a sitemap crawler-commons can read. */
  public record Unreadable(String detail) implements Result {}

  /** Reads the sitemap {@code url} answered with this media type and body. */
  public Result read(String url, Optional<String> mediaType, byte[] body) {
    URL location;
    try {
      location = URI.create(url).toURL();
    } catch (IllegalArgumentException | MalformedURLException e) {
      return new Unreadable("not a URL: " + url);
    }
    Optional<String> type = mediaType;
    if (isGzip(body)) {
      // a .gz sitemap served without Content-Encoding: inflated here, within the bound, rather
      // than by the parser without one
      Optional<byte[]> inflated = gunzip(body);
      if (inflated.isEmpty()) {
        return new Unreadable(
            "a gzipped sitemap larger than " + MAX_BYTES + " bytes uncompressed, or broken");
      }
      body = inflated.get();
      type = Optional.empty(); // the parser looks at the bytes
    }
    if (body.length > MAX_BYTES) {
      return new Unreadable("a sitemap larger than " + MAX_BYTES + " bytes");
    }
    SiteMapParser parser = new SiteMapParser(false);
    parser.setStrictNamespace(false);
    AbstractSiteMap sitemap;
    try {
      sitemap =
          type.isPresent()
              ? parser.parseSiteMap(type.get(), body, location)
              : parser.parseSiteMap(body, location);
    } catch (UnknownFormatException | IOException | RuntimeException e) {
      return new Unreadable("not a sitemap: " + e.getMessage());
    }
    List<Entry> entries = new ArrayList<>();
    if (sitemap instanceof SiteMapIndex index) {
      int listed = 0;
      for (AbstractSiteMap child : index.getSitemaps()) {
        if (++listed > MAX_ENTRIES) {
          continue;
        }
        entries.add(
            new Entry(
                child.getUrl().toString(),
                true,
                Optional.empty(),
                Optional.empty(),
                OptionalDouble.empty()));
      }
      return new Read(entries, "sitemap index", listed);
    }
    int listed = 0;
    for (SiteMapURL entry : ((SiteMap) sitemap).getSiteMapUrls()) {
      if (++listed > MAX_ENTRIES) {
        continue;
      }
      // isValid() is false for a URL outside the sitemap's directory (sitemaps.org's rule); the
      // frontier's scope decides about those instead
      entries.add(
          new Entry(
              entry.getUrl().toString(),
              false,
              Optional.ofNullable(entry.getLastModified()).map(Date::toInstant),
              Optional.ofNullable(entry.getChangeFrequency())
                  .map(frequency -> frequency.name().toLowerCase(Locale.ROOT)),
              OptionalDouble.of(entry.getPriority())));
    }
    return new Read(
        entries,
        sitemap.getType() == null
            ? "sitemap"
            : sitemap.getType().name().toLowerCase(Locale.ROOT) + " sitemap",
        listed);
  }

  private static boolean isGzip(byte[] body) {
    return body.length > 2 && (body[0] & 0xff) == 0x1f && (body[1] & 0xff) == 0x8b;
  }

  /** The inflated bytes, when they are no more than {@link #MAX_BYTES}. */
  private static Optional<byte[]> gunzip(byte[] body) {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
      byte[] bytes = in.readNBytes(MAX_BYTES + 1);
      return bytes.length > MAX_BYTES ? Optional.empty() : Optional.of(bytes);
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
