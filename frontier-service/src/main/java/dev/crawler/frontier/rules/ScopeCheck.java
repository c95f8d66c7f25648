package dev.crawler.frontier.rules;

import dev.crawler.frontier.rules.CrawlOption.Scope;
import dev.crawler.schemas.Origin;
import java.util.List;
import java.util.function.Predicate;

/**
 * Whether a URL is within the crawl's scope, given what is known of the seeds (seed 003: origins come
 * from the seeds; seed 001: offsite links and "index entire site").
 *
 * @param isSeedOrigin whether an origin ({@code scheme://host[:port]}) is a seed's
 * @param seeds the seed URLs known here, for the host, domain and directory scopes
 */
public record ScopeCheck(Predicate<String> isSeedOrigin, List<String> seeds) {

  /** Everything is in scope (a seed, which defines the scope). */
  public static final ScopeCheck ANY = new ScopeCheck(origin -> true, List.of());

  /** A check with a fixed list of seeds. */
  public static ScopeCheck ofSeeds(List<String> seeds) {
    List<String> origins = seeds.stream().map(Origin::keyOf).toList();
    return new ScopeCheck(origins::contains, List.copyOf(seeds));
  }

  /** Whether the URL is in the scope. */
  public boolean isInScope(CandidateUrl url, Scope scope) {
    if (this == ANY) {
      return true;
    }
    switch (scope) {
      case ANY:
        return true;
      case ORIGIN:
        return isSeedOrigin.test(Origin.keyOf(url.url()));
      case HOST:
        return isSeedOrigin.test(Origin.keyOf(url.url())) || seeds.stream().map(s -> CandidateUrl.of(s, 0).host()).anyMatch(url.host()::equals);
      case DOMAIN:
        return isSeedOrigin.test(Origin.keyOf(url.url())) || seeds.stream().map(s -> CandidateUrl.of(s, 0).registeredDomain()).anyMatch(url.registeredDomain()::equals);
      case DIRECTORY:
        return seeds.stream().anyMatch(seed -> isUnderDirectoryOf(url, CandidateUrl.of(seed, 0)));
      default:
        throw new IllegalStateException("unknown scope " + scope);
    }
  }

  /** Whether the URL is in the seed's directory or below (the seed's path up to its last slash). */
  private static boolean isUnderDirectoryOf(CandidateUrl url, CandidateUrl seed) {
    if (!Origin.keyOf(url.url()).equals(Origin.keyOf(seed.url()))) {
      return false;
    }
    String directory = seed.path().substring(0, seed.path().lastIndexOf('/') + 1);
    return url.path().startsWith(directory);
  }
}
