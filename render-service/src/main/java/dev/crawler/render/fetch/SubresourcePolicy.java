package dev.crawler.render.fetch;

import dev.crawler.render.domain.InterceptedRequest;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Whether a resource of a rendering page (a script, a stylesheet, a {@code fetch()}) may be
 * requested, and when: where robots.txt and the origin's politeness apply to a page's resources.
 * The main document is not asked: it was judged before the render was asked for. Implementations
 * are thread-safe and must not block: a politeness delay is a future completed later, bounded by
 * the render's time.
 */
@FunctionalInterface
public interface SubresourcePolicy {

  /** Every resource allowed at once: no robots.txt, no delay. */
  SubresourcePolicy ALLOW_ALL = request -> CompletableFuture.completedFuture(Optional.empty());

  /** Completes with empty when the request may be made now, or with why it may not. */
  CompletableFuture<Optional<String>> refusal(InterceptedRequest request);
}
