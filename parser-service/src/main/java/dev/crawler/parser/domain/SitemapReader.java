package dev.crawler.parser.domain;

import crawlercommons.sitemaps.AbstractSiteMap;
import crawlercommons.sitemaps.SiteMap;
import crawlercommons.sitemaps.SiteMapIndex;
import crawlercommons.sitemaps.SiteMapParser;
import crawlercommons.sitemaps.SiteMapURL;
import crawlercommons.sitemaps.UnknownFormatException;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Reads a sitemap (sitemaps.org XML, a sitemap index, a text list of URLs, RSS or Atom, gzipped or
 * not) with crawler-commons' {@link SiteMapParser}: the URLs it lists with their {@code lastmod},
 * {@code changefreq} and {@code priority}, which the recrawl scheduler uses, and the sitemaps an
 * index lists. URLs of other hosts are kept (robots.txt may name a sitemap elsewhere); the
 * frontier's scope decides about them. Thread-safe.
 */
public final class SitemapReader {

  /** One entry of a sitemap. */
  public record Entry(
      String url,
      boolean isSitemap,
      Optional<Instant> lastModified,
      Optional<String> changeFrequency,
      OptionalDouble priority) {}

  /** What a sitemap gave: its entries, or why it could not be read. */
  public sealed interface Result {}

  /** The sitemap's entries, in document order. */
  public record Read(List<Entry> entries, String kind) implements Result {}

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
    SiteMapParser parser = new SiteMapParser(false);
    parser.setStrictNamespace(false);
    AbstractSiteMap sitemap;
    try {
      sitemap =
          mediaType.isPresent()
              ? parser.parseSiteMap(mediaType.get(), body, location)
              : parser.parseSiteMap(body, location);
    } catch (UnknownFormatException | IOException | RuntimeException e) {
      return new Unreadable("not a sitemap: " + e.getMessage());
    }
    List<Entry> entries = new ArrayList<>();
    if (sitemap instanceof SiteMapIndex index) {
      for (AbstractSiteMap child : index.getSitemaps()) {
        entries.add(
            new Entry(
                child.getUrl().toString(),
                true,
                Optional.empty(),
                Optional.empty(),
                OptionalDouble.empty()));
      }
      return new Read(entries, "sitemap index");
    }
    for (SiteMapURL entry : ((SiteMap) sitemap).getSiteMapUrls()) {
      // isValid() is false for a URL outside the sitemap's directory (sitemaps.org's rule); the
      // frontier's scope decides about those instead
      entries.add(
          new Entry(
              entry.getUrl().toString(),
              false,
              Optional.ofNullable(entry.getLastModified()).map(java.util.Date::toInstant),
              Optional.ofNullable(entry.getChangeFrequency())
                  .map(frequency -> frequency.name().toLowerCase(Locale.ROOT)),
              OptionalDouble.of(entry.getPriority())));
    }
    return new Read(
        entries,
        sitemap.getType() == null
            ? "sitemap"
            : sitemap.getType().name().toLowerCase(Locale.ROOT) + " sitemap");
  }
}
