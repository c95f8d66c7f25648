package dev.crawler.cli.crawl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The lines of a file {@code crawler crawl} writes ({@code --out}, {@code --crawl-log}). */
final class JsonLines {

  private static final ObjectMapper JSON = new ObjectMapper();

  private JsonLines() {}

  /** Every non-blank line, parsed. */
  static List<JsonNode> read(Path file) throws IOException {
    List<JsonNode> nodes = new ArrayList<>();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        nodes.add(JSON.readTree(line));
      }
    }
    return nodes;
  }
}
