package dev.crawler.committer.bench;

import dev.crawler.committer.domain.Chunk;
import dev.crawler.committer.domain.Chunker;
import dev.crawler.committer.domain.Chunks;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Prints the CPU one thread spends chunking a document ({@link Chunker#split}), on the markdown
 * files of a directory between 30 and 100 KB: Node.js's API reference as Debian packages it ({@code
 * nodejs-doc}: headings, fenced code, tables, lists, links) is realistic documentation, and the
 * default ({@code java ... ChunkerBenchmark [DIRECTORY] [FILES]}). Without such files it chunks 25
 * generated documents of 60 K characters. Each setting runs {@value #ROUNDS} rounds; the first ones
 * warm the JIT up, the median of the last half is printed.
 */
public final class ChunkerBenchmark {

  private static final int ROUNDS = 40;

  private static final Path NODE_DOCS = Path.of("/usr/share/doc/nodejs/api");

  public static void main(String[] args) throws IOException {
    Path root = args.length > 0 ? Path.of(args[0]) : NODE_DOCS;
    int limit = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
    List<String> documents = new ArrayList<>();
    List<String> urls = new ArrayList<>();
    if (Files.isDirectory(root)) {
      try (Stream<Path> files = Files.walk(root)) {
        for (Path file : (Iterable<Path>) files.sorted()::iterator) {
          long size = Files.isRegularFile(file) ? Files.size(file) : 0;
          if (file.toString().endsWith(".md")
              && size >= 30_000
              && size <= 100_000
              && documents.size() < limit) {
            documents.add(Files.readString(file, StandardCharsets.UTF_8));
            urls.add("https://docs.example/" + root.relativize(file));
          }
        }
      }
    }
    if (documents.isEmpty()) {
      for (int i = 0; i < 25; i++) {
        documents.add(generated(60_000, i));
        urls.add("https://docs.example/generated/" + i);
      }
    }
    long chars = documents.stream().mapToLong(String::length).sum();
    System.out.printf(
        Locale.ROOT,
        "%d documents from %s, %.1f K characters of markdown on average%n",
        documents.size(),
        urls.get(0).contains("/generated/") ? "generation" : root,
        chars / 1000.0 / documents.size());
    for (Chunker chunker :
        List.of(
            Chunker.DEFAULTS,
            new Chunker(Chunker.DEFAULT_MAX_CHARS, 200, Chunker.DEFAULT_MAX_CHUNKS),
            new Chunker(500, 0, Chunker.DEFAULT_MAX_CHUNKS))) {
      run(chunker, documents, urls, chars);
    }
  }

  private static void run(Chunker chunker, List<String> documents, List<String> urls, long chars) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long[] nanos = new long[ROUNDS];
    long chunkCount = 0;
    long chunkChars = 0;
    int largest = 0;
    int truncated = 0;
    for (int round = 0; round < ROUNDS; round++) {
      chunkCount = 0;
      chunkChars = 0;
      truncated = 0;
      long start = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < documents.size(); i++) {
        Chunks chunks = chunker.split(urls.get(i), documents.get(i));
        chunkCount += chunks.chunks().size();
        truncated += chunks.truncated() ? 1 : 0;
        for (Chunk chunk : chunks.chunks()) {
          chunkChars += chunk.markdown().length();
          largest = Math.max(largest, chunk.markdown().length());
        }
      }
      nanos[round] = threads.getCurrentThreadCpuTime() - start;
    }
    long[] warm = Arrays.copyOfRange(nanos, ROUNDS / 2, ROUNDS);
    Arrays.sort(warm);
    long median = warm[warm.length / 2];
    System.out.printf(
        Locale.ROOT,
        "maxChars %d, overlap %d: %.0f us CPU per document (first round %.0f us), %.0f M characters/s;"
            + " %.1f chunks per document of %.0f characters on average, largest %d;"
            + " %d truncated%n",
        chunker.maxChars(),
        chunker.overlapChars(),
        median / 1000.0 / documents.size(),
        nanos[0] / 1000.0 / documents.size(),
        chars / 1e6 / (median / 1e9),
        (double) chunkCount / documents.size(),
        (double) chunkChars / chunkCount,
        largest,
        truncated);
  }

  /** A documentation page: sections and sub-sections of prose, lists, code and tables. */
  private static String generated(int chars, int document) {
    StringBuilder markdown = new StringBuilder("# Generated reference " + document + "\n\n");
    for (int section = 0; markdown.length() < chars; section++) {
      markdown.append("## Section ").append(section).append("\n\n");
      for (int sub = 0; sub < 3; sub++) {
        markdown.append("### Topic ").append(section).append('.').append(sub).append("\n\n");
        markdown.append(
            "The [option](https://docs.example/options#a) sets **how long** the crawler waits."
                + " It is read once, at start-up; a change needs a restart. See `crawler --help`.\n\n");
        markdown.append("- first item\n- second item with `code`\n- third item\n\n");
        markdown.append("```java\nChunks chunks = Chunker.DEFAULTS.split(url, markdown);\n");
        markdown.append("for (Chunk chunk : chunks.chunks()) {\n  index(chunk);\n}\n```\n\n");
        markdown.append(
            "| Setting | Default |\n| --- | --- |\n| max | 1500 |\n| overlap | 0 |\n\n");
      }
    }
    return markdown.toString();
  }
}
