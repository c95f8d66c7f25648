package dev.crawler.frontier.rules;

import dev.crawler.frontier.rules.CrawlOption.Scope;
import java.util.List;
import java.util.function.Predicate;

/**
 * Whether a URL is within the crawl's scope, given what is known of the seeds (origins come from
 * the seeds; offsite links and "index entire site"). The seeds are parsed once, when the check is
 * made, not for every URL checked.
 *
 * @param isSeedOrigin whether an origin ({@code scheme://host[:port]}) is a seed's
 * @param seeds the seeds known here, for the host, domain and directory scopes
 */
public record ScopeCheck(Predicate<String> isSeedOrigin, List<CandidateUrl> seeds) {

  /** Everything is in scope (a seed, which defines the scope). */
  public static final ScopeCheck ANY = new ScopeCheck(origin -> true, List.of());

  /** A check with a fixed list of seed URLs. */
  public static ScopeCheck ofSeeds(List<String> seeds) {
    List<CandidateUrl> parsed = seeds.stream().map(seed -> CandidateUrl.of(seed, 0)).toList();
    List<String> origins = parsed.stream().map(CandidateUrl::origin).toList();
    return new ScopeCheck(origins::contains, parsed);
  }

  /** The same seeds, with another judge of which origins are seeds'. */
  public ScopeCheck withSeedOrigins(Predicate<String> isSeedOrigin) {
    return new ScopeCheck(isSeedOrigin, seeds);
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
        return isSeedOrigin.test(url.origin());
      case HOST:
        return isSeedOrigin.test(url.origin())
            || seeds.stream().anyMatch(seed -> seed.host().equals(url.host()));
      case DOMAIN:
        return isSeedOrigin.test(url.origin())
            || seeds.stream()
                .anyMatch(seed -> seed.registeredDomain().equals(url.registeredDomain()));
      case DIRECTORY:
        return seeds.stream().anyMatch(seed -> isUnderDirectoryOf(url, seed));
      default:
        throw new IllegalStateException("unknown scope " + scope);
    }
  }

  /** Whether the URL is in the seed's directory or below (the seed's path up to its last slash). */
  private static boolean isUnderDirectoryOf(CandidateUrl url, CandidateUrl seed) {
    if (!url.origin().equals(seed.origin())) {
      return false;
    }
    String directory = seed.path().substring(0, seed.path().lastIndexOf('/') + 1);
    return url.path().startsWith(directory);
  }
}
