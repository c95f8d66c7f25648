package dev.crawler.fetcher.domain;

import dev.crawler.schemas.Origin;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The protection spaces of one origin (RFC 7235 §2.2: the origin and a realm) whose credentials its
 * server accepted, and which of them a request belongs to, so that credentials go along before a
 * challenge only within their own space. A space covers:
 *
 * <ul>
 *   <li>the directory of each request its credentials were accepted for, and every path below it
 *       (RFC 7617 §2.2: the paths at or deeper than the last {@code /} of the request's path);
 *   <li>for Digest, also the URIs on this origin that the challenge's {@code domain} parameter
 *       lists (RFC 7616 §3.3), each with the paths below it. A challenge without one covers its
 *       directories only, not the whole origin as RFC 7616 would have it: two realms of one origin
 *       that name no domain would otherwise each claim the other's pages.
 * </ul>
 *
 * A request belongs to the space with the longest prefix of its path, the one accepted last among
 * equals; a request in no space goes without credentials, and its challenge is answered then. A
 * prefix that does not end in {@code /} covers itself and the paths below it, not a longer name
 * ({@code /a} covers {@code /a/b}, not {@code /ab}).
 *
 * <p>Bounds: at most {@link #MAX_SPACES} spaces (the one accepted longest ago goes), {@link
 * #MAX_DIRECTORIES} directories per space (the oldest goes), and the first {@link #MAX_DOMAIN_URIS}
 * URIs of a {@code domain} parameter. Thread-safe.
 *
 * @param <C> a space's credentials, as the HTTP client applies them to a request
 */
public final class ProtectionSpaces<C> {

  /** The most protection spaces kept for one origin. */
  public static final int MAX_SPACES = 16;

  /** The most directories one space keeps. */
  public static final int MAX_DIRECTORIES = 64;

  /** The most URIs read of a challenge's {@code domain} parameter. */
  public static final int MAX_DOMAIN_URIS = 16;

  /**
   * A protection space of the origin: the authentication scheme (lower case) and the realm ({@code
   * ""} when the challenge named none).
   */
  public record Space(String scheme, String realm) {
    public Space {
      scheme = scheme.toLowerCase(Locale.ROOT);
    }
  }

  private static final class Held<C> {
    final Set<String> directories = new LinkedHashSet<>();
    List<String> domain = List.of();
    C credentials;
    long acceptedAt;

    Held(C credentials) {
      this.credentials = credentials;
    }
  }

  private final String origin;
  private final Map<Space, Held<C>> spaces = new LinkedHashMap<>();
  private long accepted;

  /**
   * @param origin the origin, as {@link Origin#keyOf(String)} gives it
   */
  public ProtectionSpaces(String origin) {
    this.origin = origin;
  }

  /**
   * Records that the server accepted the space's credentials for a request: the space now covers
   * the request's directory and, when {@code domain} lists any, those URIs on this origin; its
   * credentials are these (the newest challenge's, e.g. its nonce).
   *
   * @param requestUrl the absolute URL of the request that was challenged
   * @param domain the challenge's {@code domain} parameter, {@code ""} when it had none
   */
  public synchronized void accepted(Space space, String requestUrl, String domain, C credentials) {
    Held<C> held = spaces.get(space);
    if (held == null) {
      if (spaces.size() >= MAX_SPACES) {
        evictOldest();
      }
      held = new Held<>(credentials);
      spaces.put(space, held);
    }
    held.credentials = credentials;
    held.acceptedAt = ++accepted;
    String directory = directoryOf(pathOf(requestUrl));
    held.directories.remove(directory);
    if (held.directories.size() >= MAX_DIRECTORIES) {
      Iterator<String> oldest = held.directories.iterator();
      oldest.next();
      oldest.remove();
    }
    held.directories.add(directory);
    List<String> listed = domainPaths(domain, requestUrl);
    if (!listed.isEmpty()) {
      held.domain = listed;
    }
  }

  /** The space a request to the URL belongs to, if any. */
  public synchronized Optional<Space> spaceOf(String url) {
    String path;
    try {
      if (!Origin.keyOf(url).equals(origin)) {
        return Optional.empty();
      }
      path = pathOf(url);
    } catch (RuntimeException e) {
      return Optional.empty(); // no URL of this origin
    }
    Space best = null;
    int bestLength = -1;
    long bestAcceptedAt = -1;
    for (Map.Entry<Space, Held<C>> entry : spaces.entrySet()) {
      Held<C> held = entry.getValue();
      int length =
          Math.max(longestCovering(held.directories, path), longestCovering(held.domain, path));
      if (length > bestLength
          || (length == bestLength && length >= 0 && held.acceptedAt > bestAcceptedAt)) {
        best = entry.getKey();
        bestLength = length;
        bestAcceptedAt = held.acceptedAt;
      }
    }
    return bestLength < 0 ? Optional.empty() : Optional.of(best);
  }

  /** The credentials that go along with a request to the URL, if it belongs to a space. */
  public synchronized Optional<C> credentialsFor(String url) {
    return spaceOf(url).map(space -> spaces.get(space).credentials);
  }

  /** Forgets the space's credentials; true if it had some. */
  public synchronized boolean forget(Space space) {
    return spaces.remove(space) != null;
  }

  /** Whether no space holds credentials. */
  public synchronized boolean isEmpty() {
    return spaces.isEmpty();
  }

  /**
   * The directory of a path: up to and including its last {@code /} ({@code /a/b/c} → {@code
   * /a/b/}; {@code ""} → {@code /}).
   */
  static String directoryOf(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "/" : path.substring(0, slash + 1);
  }

  /**
   * The paths on the request's origin that a {@code domain} parameter lists: space-separated URIs,
   * absolute or relative to the request (RFC 7616 §3.3); URIs of another origin, and those that do
   * not parse, are left out.
   */
  static List<String> domainPaths(String domain, String requestUrl) {
    List<String> paths = new ArrayList<>();
    if (domain.isBlank()) {
      return paths;
    }
    URI base;
    String origin;
    try {
      base = new URI(requestUrl);
      origin = Origin.keyOf(requestUrl);
    } catch (URISyntaxException | RuntimeException e) {
      return paths;
    }
    for (String each : domain.strip().split("\\s+")) {
      if (paths.size() >= MAX_DOMAIN_URIS) {
        break;
      }
      try {
        URI resolved = base.resolve(new URI(each));
        if (Origin.keyOf(resolved.toString()).equals(origin)) {
          String path = resolved.getRawPath();
          paths.add(path == null || path.isEmpty() ? "/" : path);
        }
      } catch (URISyntaxException | RuntimeException e) {
        // not a URI: it names no path of the space
      }
    }
    return List.copyOf(paths);
  }

  /** The length of the longest prefix that covers the path, or -1 when none does. */
  private static int longestCovering(Iterable<String> prefixes, String path) {
    int longest = -1;
    for (String prefix : prefixes) {
      if (prefix.length() > longest && covers(prefix, path)) {
        longest = prefix.length();
      }
    }
    return longest;
  }

  private static boolean covers(String prefix, String path) {
    if (prefix.endsWith("/")) {
      return path.startsWith(prefix);
    }
    return path.equals(prefix) || path.startsWith(prefix + "/");
  }

  private static String pathOf(String url) {
    String path = URI.create(url).getRawPath();
    return path == null || path.isEmpty() ? "/" : path;
  }

  private void evictOldest() {
    Space oldest = null;
    long oldestAt = Long.MAX_VALUE;
    for (Map.Entry<Space, Held<C>> entry : spaces.entrySet()) {
      if (entry.getValue().acceptedAt < oldestAt) {
        oldest = entry.getKey();
        oldestAt = entry.getValue().acceptedAt;
      }
    }
    spaces.remove(oldest);
  }
}
