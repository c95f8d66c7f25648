package dev.crawler.render;

import dev.crawler.render.domain.Header;
import dev.crawler.render.domain.InterceptedRequest;
import dev.crawler.render.domain.LoadDecision;
import dev.crawler.render.domain.RequestLoader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loader for tests: fetches with the JDK's HTTP client, only from the origins it is given; every
 * request the page made is recorded, fetched or not.
 */
public final class SiteLoader implements RequestLoader {

  private static final HttpClient CLIENT =
      HttpClient.newBuilder()
          .followRedirects(HttpClient.Redirect.NEVER)
          .connectTimeout(Duration.ofSeconds(2))
          .build();

  private final Set<String> origins;
  private final List<InterceptedRequest> asked = new CopyOnWriteArrayList<>();
  private final List<String> fetched = new CopyOnWriteArrayList<>();

  public SiteLoader(String... origins) {
    this.origins = Set.of(origins);
  }

  @Override
  public CompletableFuture<LoadDecision> load(InterceptedRequest request) {
    asked.add(request);
    URI uri = URI.create(request.url());
    String origin = uri.getScheme() + "://" + uri.getRawAuthority();
    if (!origins.contains(origin)) {
      return CompletableFuture.completedFuture(new LoadDecision.Block("not an allowed origin"));
    }
    fetched.add(request.url());
    HttpRequest get = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).GET().build();
    return CLIENT
        .sendAsync(get, HttpResponse.BodyHandlers.ofByteArray())
        .handle(
            (response, failure) -> {
              if (failure != null) {
                return new LoadDecision.Block(failure.toString());
              }
              List<Header> headers = new ArrayList<>();
              response
                  .headers()
                  .map()
                  .forEach((name, values) -> values.forEach(v -> headers.add(new Header(name, v))));
              return new LoadDecision.Fulfil(response.statusCode(), headers, response.body());
            });
  }

  /** Every request the page made, in order. */
  public List<InterceptedRequest> asked() {
    return List.copyOf(asked);
  }

  /** The URLs fetched, in order. */
  public List<String> fetched() {
    return List.copyOf(fetched);
  }
}
