package dev.crawler.render.domain;

import java.util.concurrent.CompletableFuture;

/**
 * Makes, on the browser's behalf, every request a page makes: the browser itself opens no
 * connection. One loader serves one render; the renderer calls it from its protocol thread, so
 * {@link #load} must return at once and do its work asynchronously. Its future should complete
 * within the render's bound; an answer that comes after the render ended is dropped. It never
 * completes exceptionally by contract; if it does, the request is blocked with the exception's
 * message.
 */
@FunctionalInterface
public interface RequestLoader {

  /** Answers one request of the page: the main document's (and its redirects'), or a resource's. */
  CompletableFuture<LoadDecision> load(InterceptedRequest request);
}
