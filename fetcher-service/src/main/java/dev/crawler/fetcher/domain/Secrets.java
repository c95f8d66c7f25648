package dev.crawler.fetcher.domain;

import dev.crawler.schemas.options.Access;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Matcher;

/**
 * Resolves the secret references of a site's access options, {@code ${env:NAME}} and {@code
 * ${file:/path}}, where the fetcher runs: the frontier, the topics and the logs only ever hold the
 * references. A file is read again when it is older than {@link #FILE_TTL} in the cache, so a
 * rotated secret (a Kubernetes Secret mounted as a volume) is taken up without a restart; its
 * trailing line break is dropped. A reference that cannot be resolved is an error that names the
 * reference, never a value. Thread-safe.
 */
public final class Secrets {

  /** The largest secret file read, in bytes. */
  public static final int MAX_FILE_BYTES = 64 * 1024;

  /** How long a secret file's content is used before it is read again. */
  public static final Duration FILE_TTL = Duration.ofSeconds(30);

  private final Function<String, String> environment;
  private final InstantSource clock;
  private final Map<Path, Cached> files = new ConcurrentHashMap<>();

  private record Cached(String value, long readAt) {}

  /**
   * @param environment the value of an environment variable, or null when it is not set
   */
  public Secrets(Function<String, String> environment, InstantSource clock) {
    this.environment = environment;
    this.clock = clock;
  }

  /** The process's environment and files. */
  public static Secrets ofEnvironment() {
    return new Secrets(System::getenv, InstantSource.system());
  }

  /**
   * The text with every reference replaced by its secret.
   *
   * @throws UnavailableException naming the first reference that cannot be resolved
   */
  public String resolve(String text) throws UnavailableException {
    if (text.indexOf("${") < 0) {
      return text;
    }
    Matcher matcher = Access.REFERENCE.matcher(text);
    StringBuilder resolved = new StringBuilder();
    while (matcher.find()) {
      String value =
          matcher.group(1).equals("env")
              ? variable(matcher.group(), matcher.group(2))
              : file(matcher.group(), matcher.group(2));
      matcher.appendReplacement(resolved, Matcher.quoteReplacement(value));
    }
    matcher.appendTail(resolved);
    return resolved.toString();
  }

  private String variable(String reference, String name) throws UnavailableException {
    String value = environment.apply(name);
    if (value == null || value.isEmpty()) {
      throw new UnavailableException(reference + ": the environment variable is not set");
    }
    return value;
  }

  private String file(String reference, String name) throws UnavailableException {
    Path path = Path.of(name);
    if (!path.isAbsolute()) {
      throw new UnavailableException(reference + ": the path is not absolute");
    }
    long now = clock.millis();
    Cached cached = files.get(path);
    if (cached != null && now - cached.readAt() < FILE_TTL.toMillis()) {
      return cached.value();
    }
    byte[] bytes;
    try (InputStream in = Files.newInputStream(path)) {
      bytes = in.readNBytes(MAX_FILE_BYTES + 1);
    } catch (IOException e) {
      throw new UnavailableException(
          reference + ": cannot be read (" + e.getClass().getSimpleName() + ")");
    }
    if (bytes.length > MAX_FILE_BYTES) {
      throw new UnavailableException(
          reference + ": larger than " + MAX_FILE_BYTES + " bytes, not a secret");
    }
    String value = new String(bytes, StandardCharsets.UTF_8).stripTrailing();
    if (value.isEmpty()) {
      throw new UnavailableException(reference + ": the file is empty");
    }
    files.put(path, new Cached(value, now));
    return value;
  }

  /** A secret reference cannot be resolved; the message names the reference, never a value. */
  public static final class UnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    UnavailableException(String message) {
      super(message, null, false, false);
    }
  }
}
