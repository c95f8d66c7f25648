package dev.crawler.render.fetch;

import dev.crawler.fetcher.domain.Exchange;
import dev.crawler.fetcher.domain.FetchAttempt;
import dev.crawler.fetcher.domain.FetchAttempt.FailureKind;
import dev.crawler.fetcher.domain.PageFetcher;
import dev.crawler.render.browser.Renderer;
import dev.crawler.render.domain.Header;
import dev.crawler.render.domain.RenderOutcome;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A {@link PageFetcher} that renders: a call's URL is loaded in the {@link Renderer}'s browser,
 * every request of the page made by the delegate page fetcher ({@link CallLoader}), so the address
 * guard, credentials and cookie jars of the crawler's HTTP client apply to each, and its response
 * is the page's DOM once settled: UTF-8 HTML ({@code text/html; charset=utf-8}) with the main
 * document's status and other headers, its redirects and its exchanges as the delegate recorded
 * them (the archive keeps what the server sent; the parser reads what the browser built), marked
 * {@link FetchAttempt.Response#rendered() rendered}.
 *
 * <p>What is not a page to render comes back as the delegate returned it: a HEAD, an error status,
 * a 304, a redirect beyond those the call follows, a type that is not HTML, a failure to fetch the
 * main document. A render that runs out of time fails as {@link FailureKind#RENDER_TIMEOUT}, a
 * failed one as {@link FailureKind#RENDER_FAILED} (the crawl's RENDER_TIMEOUT and RENDER_FAILED,
 * with the main document's exchanges for the archive); {@link #render} gives the render's own
 * outcome beside the attempt. Robots.txt and politeness of the page's resources are the {@link
 * SubresourcePolicy}'s. Thread-safe.
 */
public final class BrowserPageFetcher implements PageFetcher {

  /** The media type of a rendered page's body. */
  public static final String RENDERED_CONTENT_TYPE = "text/html; charset=utf-8";

  /**
   * The main document's fields that described its body as sent, not the rendered one. (ETag and
   * Last-Modified stay: they name the server's version, for the next conditional request.)
   */
  private static final Set<String> BODY_FIELDS =
      Set.of("content-type", "content-length", "content-encoding", "transfer-encoding");

  /** A fetch and what its render ended as. */
  public record Rendering(FetchAttempt attempt, RenderOutcome outcome) {}

  private final Renderer renderer;
  private final PageFetcher delegate;
  private final Function<Call, SubresourcePolicy> policies;
  private final Consumer<RenderOutcome> rendered;

  /**
   * @param renderer renders the pages; closed with this fetcher
   * @param delegate makes every request of a page, over HTTP (each hop's {@link Call} names {@code
   *     FetchPath.HTTP}, so a delegate that routes by path sends them there); shared, not closed
   *     here
   * @param policy robots.txt and politeness for the pages' resources
   */
  public BrowserPageFetcher(Renderer renderer, PageFetcher delegate, SubresourcePolicy policy) {
    this(renderer, delegate, call -> policy, outcome -> {});
  }

  /**
   * A fetcher whose policy is made for each call's page ({@link PageResources}): its origin, its
   * robots.txt rules.
   */
  public static BrowserPageFetcher perPage(
      Renderer renderer, PageFetcher delegate, Function<Call, SubresourcePolicy> policies) {
    return new BrowserPageFetcher(renderer, delegate, policies, outcome -> {});
  }

  /**
   * As {@link #perPage(Renderer, PageFetcher, Function)}, telling {@code rendered} of each render.
   */
  public static BrowserPageFetcher perPage(
      Renderer renderer,
      PageFetcher delegate,
      Function<Call, SubresourcePolicy> policies,
      Consumer<RenderOutcome> rendered) {
    return new BrowserPageFetcher(renderer, delegate, policies, rendered);
  }

  private BrowserPageFetcher(
      Renderer renderer,
      PageFetcher delegate,
      Function<Call, SubresourcePolicy> policies,
      Consumer<RenderOutcome> rendered) {
    this.renderer = renderer;
    this.delegate = delegate;
    this.policies = policies;
    this.rendered = rendered;
  }

  @Override
  public CompletableFuture<FetchAttempt> fetch(Call call) {
    if (call.isHead()) {
      return delegate.fetch(call);
    }
    return render(call).thenApply(Rendering::attempt);
  }

  /** Renders a call's URL (a GET); the attempt is what {@link #fetch} returns. */
  public CompletableFuture<Rendering> render(Call call) {
    CallLoader loader = new CallLoader(call, delegate, policies.apply(call));
    return renderer
        .render(call.url(), call.maxRedirects(), loader)
        .thenApply(
            outcome -> {
              rendered.accept(outcome);
              return new Rendering(attemptOf(outcome, loader.mainAttempts()), outcome);
            });
  }

  /** The fetch attempt a render's outcome makes, given the main document's attempts. */
  static FetchAttempt attemptOf(RenderOutcome outcome, List<FetchAttempt> mainAttempts) {
    Optional<FetchAttempt> last =
        mainAttempts.isEmpty()
            ? Optional.empty()
            : Optional.of(mainAttempts.get(mainAttempts.size() - 1));
    List<Exchange> exchanges = new ArrayList<>();
    for (FetchAttempt attempt : mainAttempts) {
      if (attempt instanceof FetchAttempt.Response response) {
        exchanges.addAll(response.exchanges());
      }
    }
    if (outcome instanceof RenderOutcome.Rendered rendered) {
      Map<String, String> headers = new LinkedHashMap<>();
      for (Header header : rendered.main().headers()) {
        if (!BODY_FIELDS.contains(header.name().toLowerCase(Locale.ROOT))) {
          headers.merge(header.name(), header.value(), (a, b) -> a + ", " + b);
        }
      }
      headers.put("Content-Type", RENDERED_CONTENT_TYPE);
      return new FetchAttempt.Response(
          rendered.main().status(),
          headers,
          rendered.html().getBytes(StandardCharsets.UTF_8),
          Optional.of("text/html"),
          Optional.of("UTF-8"),
          rendered.durationMillis(),
          rendered.redirectChain(),
          rendered.url(),
          exchanges,
          true);
    }
    if (outcome instanceof RenderOutcome.NotRendered notRendered
        && last.orElse(null) instanceof FetchAttempt.Response response) {
      return new FetchAttempt.Response(
          response.status(),
          response.headers(),
          response.body(),
          response.contentType(),
          response.charset(),
          notRendered.durationMillis(),
          notRendered.redirectChain(),
          notRendered.url(),
          exchanges);
    }
    if (outcome instanceof RenderOutcome.Failed failed
        && failed.reason() == RenderOutcome.FailureReason.MAIN_DOCUMENT_BLOCKED
        && last.orElse(null) instanceof FetchAttempt.Failure failure) {
      return failure; // the fetch failed as a plain fetch would have
    }
    if (outcome instanceof RenderOutcome.TimedOut timedOut) {
      return new FetchAttempt.Failure(
          FailureKind.RENDER_TIMEOUT, timedOut.detail(), timedOut.durationMillis(), exchanges);
    }
    String detail =
        outcome instanceof RenderOutcome.Failed failed
            ? failed.reason() + ": " + failed.detail()
            : outcome.getClass().getSimpleName();
    return new FetchAttempt.Failure(
        FailureKind.RENDER_FAILED, detail, outcome.durationMillis(), exchanges);
  }

  /**
   * Whether the delegate has room for another body: a render's bodies are the delegate's. (This
   * fetcher keeps nothing per origin of its own, each page's browser context being disposed with
   * it: {@link #forget} and {@link #forgetCookies} are the delegate's owner's to call.)
   */
  @Override
  public boolean hasRoomForAnotherBody() {
    return delegate.hasRoomForAnotherBody();
  }

  /** Closes the renderer and its browsers; the delegate is its owner's to close. */
  @Override
  public void close() {
    renderer.close();
  }
}
