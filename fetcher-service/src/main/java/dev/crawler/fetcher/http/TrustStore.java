package dev.crawler.fetcher.http;

import java.nio.file.Path;

/** A trust store: where it is, and its password (a secret the fetcher's settings hold). */
public record TrustStore(Path path, String password) {
  @Override
  public String toString() {
    return path.toString();
  }
}
