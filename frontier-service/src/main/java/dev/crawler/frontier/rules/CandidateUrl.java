package dev.crawler.frontier.rules;

import dev.crawler.common.url.Site;
import dev.crawler.schemas.InvalidUrlException;
import dev.crawler.schemas.Origin;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A URL the rules decide about, taken apart once (RFC 3986): scheme, host, path, query parameter
 * names, file extension, and the depth it was found at.
 *
 * @param url the URL as given (normalized by the caller for http and https)
 * @param path the path, never empty for http(s) URLs
 * @param query the raw query, when there is one
 * @param parameters the query parameter names, in order
 * @param extension the lower-case extension of the last path segment, when it has one
 * @param registeredDomain the host's registered domain (the host itself when it has none), looked
 *     up once
 * @param origin the URL's origin ({@code scheme://host[:port]}), empty when it has none (not
 *     http(s))
 */
public record CandidateUrl(
    String url,
    String scheme,
    String host,
    int port,
    String path,
    Optional<String> query,
    List<String> parameters,
    Optional<String> extension,
    String registeredDomain,
    String origin,
    int depth) {

  /**
   * Takes a URL apart.
   *
   * @throws IllegalArgumentException when it is not an absolute URL
   */
  public static CandidateUrl of(String url, int depth) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("not a URL: " + e.getMessage(), e);
    }
    if (uri.getScheme() == null) {
      throw new IllegalArgumentException("not an absolute URL: " + url);
    }
    String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    Optional<String> query = Optional.ofNullable(uri.getRawQuery());
    List<String> parameters = new ArrayList<>();
    query.ifPresent(
        q -> {
          for (String pair : q.split("&")) {
            if (!pair.isEmpty()) {
              int equals = pair.indexOf('=');
              parameters.add(equals < 0 ? pair : pair.substring(0, equals));
            }
          }
        });
    String segment = path.substring(path.lastIndexOf('/') + 1);
    int dot = segment.lastIndexOf('.');
    Optional<String> extension =
        dot > 0 && dot < segment.length() - 1
            ? Optional.of(segment.substring(dot + 1).toLowerCase(Locale.ROOT))
            : Optional.empty();
    String origin;
    try {
      origin = Origin.keyOf(url);
    } catch (InvalidUrlException e) {
      origin = "";
    }
    return new CandidateUrl(
        url,
        uri.getScheme().toLowerCase(Locale.ROOT),
        host,
        uri.getPort(),
        path,
        query,
        List.copyOf(parameters),
        extension,
        Site.of(host),
        origin,
        depth);
  }

  /** Whether the URL has a query string. */
  public boolean hasQuery() {
    return query.isPresent();
  }

  /** The path's segments, empty ones left out: {@code /a//b/} has {@code [a, b]}. */
  public List<String> segments() {
    List<String> segments = new ArrayList<>();
    int start = 1;
    while (start <= path.length()) {
      int end = path.indexOf('/', start);
      if (end < 0) {
        end = path.length();
      }
      if (end > start) {
        segments.add(path.substring(start, end));
      }
      start = end + 1;
    }
    return segments;
  }

  /**
   * The first of these extensions the whole address ends in, after a dot and in any case (as {@code
   * \.(ext|…)$} matches on the whole URL): {@code /get?f=report.pdf} ends in pdf, {@code
   * /doc.pdf?x=1} in nothing.
   */
  public Optional<String> endsInExtension(List<String> extensions) {
    for (String extension : extensions) {
      int at = url.length() - extension.length();
      if (at > 0
          && url.charAt(at - 1) == '.'
          && url.regionMatches(true, at, extension, 0, extension.length())) {
        return Optional.of(extension);
      }
    }
    return Optional.empty();
  }
}
