package dev.crawler.render.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The protocol connection's framing and routing, against a pipe played by the test. */
class CdpConnectionTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration LONG = Duration.ofSeconds(10);

  private PipedOutputStream browserWrites;
  private final SentMessages sent = new SentMessages();
  private CdpConnection cdp;

  /** What the connection wrote, split at each NUL. */
  private static final class SentMessages extends java.io.OutputStream {
    private final ByteArrayOutputStream current = new ByteArrayOutputStream();
    private final List<JsonNode> messages = new CopyOnWriteArrayList<>();

    @Override
    public synchronized void write(int b) throws IOException {
      if (b == 0) {
        messages.add(JSON.readTree(current.toByteArray()));
        current.reset();
      } else {
        current.write(b);
      }
    }
  }

  @BeforeEach
  void connect() throws IOException {
    browserWrites = new PipedOutputStream();
    PipedInputStream fromBrowser = new PipedInputStream(browserWrites, 1 << 16);
    cdp = new CdpConnection(fromBrowser, sent, JSON, 1024, "test");
    cdp.start();
  }

  @AfterEach
  void close() {
    cdp.close();
  }

  private void browserSends(String... frames) throws IOException {
    for (String frame : frames) {
      browserWrites.write(frame.getBytes(StandardCharsets.UTF_8));
    }
    browserWrites.flush();
  }

  @Test
  void aCommandIsWrittenNulTerminatedAndAnsweredById() throws IOException {
    CompletableFuture<JsonNode> answer = cdp.send("Browser.getVersion", cdp.params(), null, LONG);
    await().until(() -> sent.messages.size() == 1);
    JsonNode command = sent.messages.get(0);
    assertThat(command.path("method").asText()).isEqualTo("Browser.getVersion");
    assertThat(command.has("sessionId")).isFalse();

    browserSends("{\"id\":" + command.path("id").asLong() + ",\"result\":{\"product\":\"X/1\"}}\0");

    assertThat(answer.join().path("product").asText()).isEqualTo("X/1");
  }

  @Test
  void aMessageSplitAcrossReadsIsJoined() throws IOException {
    CompletableFuture<JsonNode> answer = cdp.send("A.b", cdp.params(), "S1", LONG);
    await().until(() -> sent.messages.size() == 1);
    long id = sent.messages.get(0).path("id").asLong();
    assertThat(sent.messages.get(0).path("sessionId").asText()).isEqualTo("S1");

    browserSends("{\"id\":" + id + ",\"res", "ult\":{\"v\"", ":7}}", "\0");

    assertThat(answer.join().path("v").asInt()).isEqualTo(7);
  }

  @Test
  void anErrorAnswerFailsTheCommand() throws IOException {
    CompletableFuture<JsonNode> answer = cdp.send("Page.navigate", cdp.params(), null, LONG);
    await().until(() -> sent.messages.size() == 1);
    long id = sent.messages.get(0).path("id").asLong();

    browserSends("{\"id\":" + id + ",\"error\":{\"code\":-32000,\"message\":\"no page\"}}\0");

    assertThatThrownBy(answer::join)
        .isInstanceOf(CompletionException.class)
        .hasCauseInstanceOf(CdpException.class)
        .hasMessageContaining("Page.navigate: no page");
  }

  @Test
  void eventsGoToTheirSessionsHandler() throws IOException {
    List<String> browserEvents = new CopyOnWriteArrayList<>();
    List<String> pageEvents = new CopyOnWriteArrayList<>();
    cdp.onEvents(CdpConnection.BROWSER, (method, params) -> browserEvents.add(method));
    cdp.onEvents("S1", (method, params) -> pageEvents.add(method + params.path("n").asInt()));

    browserSends(
        "{\"method\":\"Target.targetCreated\",\"params\":{}}\0"
            + "{\"method\":\"Fetch.requestPaused\",\"params\":{\"n\":1},\"sessionId\":\"S1\"}\0"
            + "{\"method\":\"Fetch.requestPaused\",\"params\":{\"n\":2},\"sessionId\":\"S2\"}\0");

    await().until(() -> pageEvents.size() == 1 && browserEvents.size() == 1);
    assertThat(pageEvents).containsExactly("Fetch.requestPaused1");
    assertThat(browserEvents).containsExactly("Target.targetCreated");
  }

  @Test
  void aMessageOverTheLimitIsSkippedAndTheNextOneRead() throws IOException {
    CompletableFuture<JsonNode> first = cdp.send("A.big", cdp.params(), null, LONG);
    CompletableFuture<JsonNode> second = cdp.send("A.small", cdp.params(), null, LONG);
    await().until(() -> sent.messages.size() == 2);
    long bigId = sent.messages.get(0).path("id").asLong();
    long smallId = sent.messages.get(1).path("id").asLong();

    browserSends(
        "{\"id\":" + bigId + ",\"result\":{\"v\":\"" + "x".repeat(5000) + "\"}}\0",
        "{\"id\":" + smallId + ",\"result\":{\"v\":\"ok\"}}\0");

    assertThat(second.join().path("v").asText()).isEqualTo("ok");
    assertThat(first).isNotDone();
  }

  @Test
  void theBrowserClosingItsPipeFailsWhatWaits() throws IOException {
    CompletableFuture<JsonNode> answer = cdp.send("A.b", cdp.params(), null, LONG);

    browserWrites.close();

    assertThatThrownBy(answer::join).hasMessageContaining("the browser closed its pipe");
    await().until(() -> !cdp.isOpen());
    assertThat(cdp.closed().join()).isEqualTo("the browser closed its pipe");
    assertThatThrownBy(() -> cdp.send("C.d", cdp.params(), null, LONG).join())
        .hasMessageContaining("C.d: the browser closed its pipe");
  }
}
