package dev.crawler.fetcher.domain;

import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.events.Outcome;
import dev.crawler.schemas.options.RequestOptions.Head;
import java.util.Optional;

/**
 * What a fetch attempt means for the crawl, in the {@code Outcome} codes: the page was fetched and
 * goes on to the parser, or the fetch decided the URL's outcome. One pure function of the attempt.
 *
 * @param outcome empty when the page was fetched (2xx) and the parser decides next
 * @param detail why: {@code 301 http://a.example/new}, {@code 503}, {@code connect failed: ...}
 * @param redirectTarget the normalized target of a redirect, to be discovered
 */
public record FetchVerdict(
    Optional<Outcome> outcome, Optional<String> detail, Optional<String> redirectTarget) {

  /** Whether the page goes on to the parser. */
  public boolean isFetched() {
    return outcome.isEmpty();
  }

  /**
   * Whether the GET follows a HEAD request that went first: after a 2xx that the metadata filters
   * accepted, always (HEAD and GET count as one request for politeness); after metadata the filters
   * rejected, never (the URL ends {@code FILTERED}); after any other answer only when HEAD is
   * optional (many servers answer HEAD badly), otherwise the HEAD's answer decides the URL.
   */
  public static boolean goesOnToGet(FetchAttempt head, Head mode) {
    boolean isAccepted =
        head instanceof FetchAttempt.Response response
            && response.status() >= 200
            && response.status() < 300;
    boolean isRejected =
        head instanceof FetchAttempt.Failure failure
            && failure.kind() == FetchAttempt.FailureKind.REJECTED_METADATA;
    return isAccepted || (!isRejected && mode == Head.OPTIONAL);
  }

  /** The verdict on an attempt to fetch {@code url}. */
  public static FetchVerdict of(String url, FetchAttempt attempt) {
    if (attempt instanceof FetchAttempt.Failure failure) {
      Outcome outcome =
          switch (failure.kind()) {
            case TOO_LARGE -> Outcome.TOO_LARGE;
            case REJECTED_METADATA -> Outcome.FILTERED;
            case ADDRESS_DENIED -> Outcome.ADDRESS_DENIED;
            case ACCESS_FAILED -> Outcome.ACCESS_FAILED;
            case RENDER_TIMEOUT -> Outcome.RENDER_TIMEOUT;
            case RENDER_FAILED -> Outcome.RENDER_FAILED;
            default -> Outcome.NETWORK_ERROR;
          };
      return decided(outcome, describe(failure));
    }
    FetchAttempt.Response response = (FetchAttempt.Response) attempt;
    int status = response.status();
    if (status >= 200 && status < 300) {
      return new FetchVerdict(Optional.empty(), Optional.empty(), Optional.empty());
    }
    if (status == 304) {
      return decided(Outcome.UNMODIFIED, "304");
    }
    if (status >= 300 && status < 400) {
      String base = response.url().isEmpty() ? url : response.url();
      Optional<String> target =
          response
              .header("Location")
              .flatMap(location -> UrlNormalizer.resolve(base, location))
              .flatMap(UrlNormalizer::tryNormalize);
      if (target.isEmpty()) {
        return decided(Outcome.BAD_STATUS, status + " without a usable Location");
      }
      if (target.get().equals(base) || response.redirectChain().contains(target.get())) {
        // a loop: the target was visited already in this fetch, so it is not discovered again
        return decided(Outcome.REDIRECT, status + " " + target.get() + " (redirect loop)");
      }
      return new FetchVerdict(
          Optional.of(Outcome.REDIRECT), Optional.of(status + " " + target.get()), target);
    }
    if (status == 404) {
      return decided(Outcome.NOT_FOUND, "404");
    }
    if (status == 410) {
      return decided(Outcome.GONE, "410");
    }
    if (Feedback.isRateLimit(response)) {
      return decided(
          Outcome.RATE_LIMITED,
          status + response.header("Retry-After").map(after -> " retry after " + after).orElse(""));
    }
    return decided(Outcome.BAD_STATUS, Integer.toString(status));
  }

  private static String describe(FetchAttempt.Failure failure) {
    String kind =
        switch (failure.kind()) {
          case CONNECT_FAILED -> "connect failed";
          case TIMEOUT -> "timeout";
          case BROKEN_RESPONSE -> "broken response";
          case PROTOCOL_ERROR -> "protocol error";
          case TOO_LARGE -> "too large";
          case REJECTED_METADATA -> "METADATA";
          case ADDRESS_DENIED -> "address denied";
          case BUDGET_SPENT -> "fetcher busy";
          case ACCESS_FAILED -> "access failed";
          case RENDER_TIMEOUT -> "render timeout";
          case RENDER_FAILED -> "render failed";
        };
    return failure.detail().isEmpty() ? kind : kind + ": " + failure.detail();
  }

  private static FetchVerdict decided(Outcome outcome, String detail) {
    return new FetchVerdict(Optional.of(outcome), Optional.of(detail), Optional.empty());
  }
}
