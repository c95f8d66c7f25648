package dev.crawler.cli.crawl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.cli.CrawlerCli;
import dev.crawler.fetcher.http.AccessTestSite;
import dev.crawler.fetcher.http.RecordingHttpProxy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code crawler crawl} of a site behind every door a crawler meets — HTTP Basic, HTTP Digest, a
 * login form whose session cookie expires, a page that needs an API key header — through a proxy
 * that wants its own credentials, every secret given to {@code crawl.yaml} as a {@code ${file:…}}
 * reference. Every page is published; no secret, nor the session cookie the site handed out,
 * reaches the broker's log segments, the services' state, the crawl log, the documents or the
 * archive.
 */
class ReachIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "Site-Pa55word-7f3a";
  private static final String API_KEY = "api-key-19c2e8d4";
  private static final String PROXY_PASSWORD = "proxy-Pa55-5b1d";

  @TempDir Path work;

  @Test
  void crawlsEveryDoorThroughAProxyAndNoSecretReachesKafka() throws Exception {
    Path secrets = Files.createDirectories(work.resolve("secrets"));
    Path password = Files.writeString(secrets.resolve("site-password"), PASSWORD + "\n");
    Path apiKey = Files.writeString(secrets.resolve("api-key"), API_KEY);
    Path proxyPassword = Files.writeString(secrets.resolve("proxy-password"), PROXY_PASSWORD);
    try (AccessTestSite site = new AccessTestSite(PASSWORD, API_KEY);
        RecordingHttpProxy proxy = new RecordingHttpProxy("proxy-user", PROXY_PASSWORD)) {
      String base = site.base();
      Path config =
          Files.writeString(
              work.resolve("crawl.yaml"),
              String.join(
                  "\n",
                  "global:",
                  "  credentials-over-http: true      # the test site is plain http on loopback",
                  "  proxy: {url: 'http://127.0.0.1:" + proxy.port() + "', user: proxy-user,",
                  "          password: '${file:" + proxyPassword + "}'}",
                  "rules:",
                  "  - apply-for: {path-prefix: /basic/}",
                  "    options:",
                  "      auth: {scheme: basic, user: crawler, password: '${file:"
                      + password
                      + "}'}",
                  "  - apply-for: {path-prefix: /digest/}",
                  "    options:",
                  "      auth: {scheme: digest, user: crawler, password: '${file:"
                      + password
                      + "}'}",
                  "  - apply-for: {path-prefix: /members/}",
                  "    options:",
                  "      login:",
                  "        url: " + base + "/login",
                  "        fields: {user: crawler, password: '${file:" + password + "}'}",
                  "        success-cookie: SESSION",
                  "  - apply-for: {path-prefix: /api/}",
                  "    options:",
                  "      headers: {X-Api-Key: '${file:" + apiKey + "}', Accept-Language: de}",
                  ""));

      int exit =
          CrawlerCli.run(
              new String[] {
                "crawl",
                base + "/",
                "--config",
                config.toString(),
                "--delay-ms",
                "20",
                "--data-dir",
                work.resolve("data").toString(),
                "--warc",
                work.resolve("warc").toString(),
                "--out",
                work.resolve("documents.jsonl").toString(),
                "--crawl-log",
                work.resolve("log.jsonl").toString()
              });

      assertThat(exit).isZero();
      Map<String, String> outcomes = new TreeMap<>();
      for (JsonNode line : JsonLines.read(work.resolve("log.jsonl"))) {
        outcomes.put(line.get("url").asText(), line.get("outcome").asText());
      }
      assertThat(outcomes)
          .containsEntry(base + "/", "COMMITTED")
          .containsEntry(base + "/basic/1", "COMMITTED")
          .containsEntry(base + "/digest/1", "COMMITTED")
          .containsEntry(base + "/members/1", "COMMITTED")
          .containsEntry(base + "/api/1", "COMMITTED");
      List<String> titles = new ArrayList<>();
      for (JsonNode line : JsonLines.read(work.resolve("documents.jsonl"))) {
        titles.add(line.path("text").asText(line.toString()));
      }
      assertThat(String.join("\n", titles))
          .contains("secret page /basic/1", "secret page /digest/1")
          .contains("members page /members/1", "api /api/1");
      assertThat(site.logins()).isEqualTo(1);
      assertThat(proxy.requests())
          .as("every request went through the proxy")
          .extracting(RecordingHttpProxy.Recorded::target)
          .contains(base + "/basic/1", base + "/members/1", base + "/login", base + "/api/1");

      List<String> sessions = new ArrayList<>();
      for (AccessTestSite.Seen seen : site.seen()) {
        String cookie = seen.headers().get("cookie");
        if (cookie != null && cookie.startsWith("SESSION=")) {
          sessions.add(cookie.substring("SESSION=".length()));
        }
      }
      assertThat(sessions).as("the session the site handed out").isNotEmpty();
      List<String> secretsToFind = new ArrayList<>(List.of(PASSWORD, API_KEY, PROXY_PASSWORD));
      // and the Basic credentials as they go on the wire
      for (String credentials : List.of("crawler:" + PASSWORD, "proxy-user:" + PROXY_PASSWORD)) {
        secretsToFind.add(
            Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
      }
      secretsToFind.addAll(sessions);
      assertThat(filesHolding(work.resolve("data"), secretsToFind))
          .as("broker segments and service state holding a secret")
          .isEmpty();
      assertThat(filesHolding(work.resolve("warc"), secretsToFind)).isEmpty();
      for (String file : List.of("log.jsonl", "documents.jsonl")) {
        assertThat(filesHolding(work.resolve(file), secretsToFind)).isEmpty();
      }
      assertThat(segments(work.resolve("data"))).as("broker log segments searched").isNotEmpty();
    }
  }

  /** The files under {@code root} whose bytes hold one of the secrets, as UTF-8. */
  private static List<String> filesHolding(Path root, List<String> secrets) throws IOException {
    List<String> found = new ArrayList<>();
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    for (Path file : files) {
      byte[] bytes = Files.readAllBytes(file);
      for (String secret : secrets) {
        if (indexOf(bytes, secret.getBytes(StandardCharsets.UTF_8)) >= 0) {
          found.add(root.relativize(file.toAbsolutePath()) + " holds " + secret);
        }
      }
    }
    return found;
  }

  private static List<Path> segments(Path root) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(file -> file.getFileName().toString().endsWith(".log")).toList();
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
