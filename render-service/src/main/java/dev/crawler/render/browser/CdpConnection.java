package dev.crawler.render.browser;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One DevTools protocol connection over the browser's pipe ({@code --remote-debugging-pipe}): JSON
 * messages, each ended by a NUL byte. Commands carry an id and are answered by the message with
 * that id; events carry the session they belong to ({@code flatten} sessions), or none for the
 * browser's own.
 *
 * <p>Thread-safe. Commands may be sent from any thread: they are written in order by one writer
 * thread, so a caller never blocks on the pipe. Answers and events are handled on the connection's
 * reader thread: their handlers and the futures' dependants must not block. A message larger than
 * the limit is skipped (the command it answers then times out), so the browser cannot make the
 * connection hold more than that in memory.
 */
final class CdpConnection implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(CdpConnection.class);

  /** Receives the events of one session. Called on the reader thread: must not block. */
  @FunctionalInterface
  interface EventHandler {
    void onEvent(String method, JsonNode params);
  }

  /** The session key of the browser's own events. */
  static final String BROWSER = "";

  private final InputStream in;
  private final OutputStream out;
  private final ObjectMapper json;
  private final int maxMessageBytes;
  private final String name;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, Pending> pending = new ConcurrentHashMap<>();
  private final Map<String, EventHandler> handlers = new ConcurrentHashMap<>();
  private final ExecutorService writer;
  private final CompletableFuture<String> closed = new CompletableFuture<>();

  private record Pending(String method, CompletableFuture<JsonNode> answer) {}

  /**
   * @param in what the browser writes (its fd 4)
   * @param out what the browser reads (its fd 3)
   * @param maxMessageBytes the largest message read; larger ones are skipped
   * @param name names the connection's threads and log lines (e.g. the browser's pid)
   */
  CdpConnection(
      InputStream in, OutputStream out, ObjectMapper json, int maxMessageBytes, String name) {
    this.in = in;
    this.out = out;
    this.json = json;
    this.maxMessageBytes = maxMessageBytes;
    this.name = name;
    this.writer =
        Executors.newSingleThreadExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "cdp-writer-" + name);
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Starts reading the browser's messages. */
  void start() {
    Thread reader = new Thread(this::read, "cdp-reader-" + name);
    reader.setDaemon(true);
    reader.start();
  }

  /** A fresh parameters object. */
  ObjectNode params() {
    return json.createObjectNode();
  }

  /**
   * Sends a command; the future completes with its {@code result}, or exceptionally with a {@link
   * CdpException} (an error answer, the connection gone) or a timeout.
   *
   * @param sessionId the session it goes to; {@code null} for the browser
   * @param timeout how long the answer may take
   */
  CompletableFuture<JsonNode> send(
      String method, ObjectNode params, @Nullable String sessionId, Duration timeout) {
    CompletableFuture<JsonNode> answer = new CompletableFuture<>();
    if (closed.isDone()) {
      answer.completeExceptionally(new CdpException(method + ": " + closed.join()));
      return answer;
    }
    long id = ids.incrementAndGet();
    ObjectNode message = json.createObjectNode();
    message.put("id", id);
    message.put("method", method);
    message.set("params", params);
    if (sessionId != null) {
      message.put("sessionId", sessionId);
    }
    byte[] bytes;
    try {
      bytes = json.writeValueAsBytes(message);
    } catch (IOException e) {
      answer.completeExceptionally(e);
      return answer;
    }
    pending.put(id, new Pending(method, answer));
    answer.whenComplete((result, failure) -> pending.remove(id));
    try {
      writer.execute(() -> write(bytes));
    } catch (RejectedExecutionException e) {
      answer.completeExceptionally(new CdpException(method + ": the connection is closed"));
      return answer;
    }
    long millis = Math.max(1, timeout.toMillis());
    return answer.orTimeout(millis, TimeUnit.MILLISECONDS);
  }

  /** Sends a command whose answer does not matter; a failure is logged at debug level. */
  void tell(String method, ObjectNode params, @Nullable String sessionId, Duration timeout) {
    send(method, params, sessionId, timeout)
        .whenComplete(
            (result, failure) -> {
              if (failure != null) {
                log.debug("{} {}: {}", name, method, failure.toString());
              }
            });
  }

  /** Routes a session's events (or the browser's, {@link #BROWSER}) to a handler. */
  void onEvents(String sessionId, EventHandler handler) {
    handlers.put(sessionId, handler);
  }

  /** Stops routing a session's events. */
  void removeEvents(String sessionId) {
    handlers.remove(sessionId);
  }

  /** Completes with the reason when the connection ends. */
  CompletableFuture<String> closed() {
    return closed;
  }

  boolean isOpen() {
    return !closed.isDone();
  }

  /** Closes the browser's input: a browser reading it exits. */
  @Override
  public void close() {
    end("closed by the renderer");
  }

  private void closeOutput() {
    try {
      out.close();
    } catch (IOException e) {
      log.debug("{}: closing the pipe: {}", name, e.getMessage());
    }
  }

  private void write(byte[] message) {
    try {
      out.write(message);
      out.write(0);
      out.flush();
    } catch (IOException e) {
      end("writing to the browser failed: " + e.getMessage());
    }
  }

  private void read() {
    byte[] chunk = new byte[64 * 1024];
    byte[] message = new byte[64 * 1024];
    int size = 0;
    boolean skipping = false;
    try {
      int n;
      while ((n = in.read(chunk)) != -1) {
        int from = 0;
        for (int i = 0; i < n; i++) {
          if (chunk[i] != 0) {
            continue;
          }
          int length = i - from;
          if (!skipping && size + length <= maxMessageBytes) {
            message = append(message, size, chunk, from, length);
            size += length;
            dispatch(message, size);
          }
          size = 0;
          skipping = false;
          from = i + 1;
        }
        int rest = n - from;
        if (rest > 0 && !skipping) {
          if (size + rest > maxMessageBytes) {
            log.warn("{}: a message over {} bytes skipped", name, maxMessageBytes);
            skipping = true;
            size = 0;
            message = new byte[64 * 1024];
          } else {
            message = append(message, size, chunk, from, rest);
            size += rest;
          }
        }
      }
      end("the browser closed its pipe");
    } catch (IOException e) {
      end("reading from the browser failed: " + e.getMessage());
    }
  }

  private static byte[] append(byte[] buffer, int size, byte[] chunk, int from, int length) {
    byte[] target = buffer;
    if (size + length > target.length) {
      target = Arrays.copyOf(buffer, Math.max(size + length, target.length * 2));
    }
    System.arraycopy(chunk, from, target, size, length);
    return target;
  }

  private void dispatch(byte[] message, int size) {
    JsonNode node;
    try {
      node = json.readTree(message, 0, size);
    } catch (IOException e) {
      log.warn("{}: an unreadable message skipped: {}", name, e.getMessage());
      return;
    }
    JsonNode id = node.get("id");
    if (id != null) {
      Pending waiting = pending.remove(id.asLong());
      if (waiting == null) {
        return; // answered after its timeout
      }
      JsonNode error = node.get("error");
      if (error != null) {
        waiting
            .answer()
            .completeExceptionally(
                new CdpException(waiting.method() + ": " + error.path("message").asText()));
      } else {
        waiting.answer().complete(node.path("result"));
      }
      return;
    }
    String method = node.path("method").asText("");
    EventHandler handler = handlers.get(node.path("sessionId").asText(BROWSER));
    if (handler != null && !method.isEmpty()) {
      try {
        handler.onEvent(method, node.path("params"));
      } catch (RuntimeException e) {
        log.warn("{}: handling {} failed", name, method, e);
      }
    }
  }

  private void end(String reason) {
    if (!closed.complete(reason)) {
      return;
    }
    try {
      writer.execute(this::closeOutput); // after the messages already queued
    } catch (RejectedExecutionException e) {
      closeOutput();
    }
    writer.shutdown();
    for (Pending waiting : pending.values()) {
      waiting.answer().completeExceptionally(new CdpException(waiting.method() + ": " + reason));
    }
    pending.clear();
  }
}
