package dev.crawler.render.fetch;

import crawlercommons.robots.BaseRobotRules;
import dev.crawler.fetcher.domain.PageFetcher.Call;
import dev.crawler.fetcher.domain.RobotsPolicy;
import dev.crawler.render.domain.InterceptedRequest;
import dev.crawler.schemas.InvalidUrlException;
import dev.crawler.schemas.Origin;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The resources a rendering page may load: those of its own origin that the origin's robots.txt
 * allows (its rules as the fetch loop had them when the page was released, {@link Call#robots()}),
 * and those of other origins only when {@code otherOrigins} allows them. One page's requests to its
 * origin are one visit: the page load was spaced by the origin's delay, its resources are not
 * (bounded by the render's request cap and time). Immutable and thread-safe.
 */
public final class PageResources implements SubresourcePolicy {

  private final String origin;
  private final Optional<BaseRobotRules> robots;
  private final boolean otherOrigins;

  private PageResources(String origin, Optional<BaseRobotRules> robots, boolean otherOrigins) {
    this.origin = origin;
    this.robots = robots;
    this.otherOrigins = otherOrigins;
  }

  /** The policy of a call's page. */
  public static SubresourcePolicy of(Call call, boolean otherOrigins) {
    String origin;
    try {
      origin = Origin.keyOf(call.url());
    } catch (InvalidUrlException e) {
      return request -> CompletableFuture.completedFuture(Optional.of("not an http(s) page"));
    }
    return new PageResources(origin, Optional.ofNullable(call.robots()), otherOrigins);
  }

  @Override
  public CompletableFuture<Optional<String>> refusal(InterceptedRequest request) {
    return CompletableFuture.completedFuture(why(request.url()));
  }

  private Optional<String> why(String url) {
    String of;
    try {
      of = Origin.keyOf(url);
    } catch (InvalidUrlException e) {
      return Optional.of("not an http(s) URL");
    }
    if (!of.equals(origin)) {
      return otherOrigins
          ? Optional.empty()
          : Optional.of("another origin's resource (render.other.origins)");
    }
    if (robots.isPresent() && !RobotsPolicy.isAllowedByRobots(robots.get(), url)) {
      return Optional.of("robots.txt disallows it");
    }
    return Optional.empty();
  }
}
