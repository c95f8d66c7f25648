package dev.crawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.InMemorySchemaRegistryClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps docs/architecture.md true to the code: its class map (docs/classes.md) is generated from
 * the sources, every production class with the first sentence of its Javadoc, and it names every
 * topic of the catalogue. When the map is out of date the test writes the current one to {@code
 * target/classes.md}: copy it over docs/classes.md.
 */
class ArchitectureDocTest {

  /** The modules whose production classes the map lists, in the order of the flow. */
  static final List<String> MODULES =
      List.of(
          "schemas",
          "common",
          "frontier-service",
          "fetcher-service",
          "render-service",
          "parser-service",
          "committer-service",
          "archive-service",
          "embedded",
          "crawler-cli");

  private static final Path ROOT = Path.of("..");

  private static final Pattern TYPE =
      Pattern.compile(
          "(?m)^(?:public |abstract |final |sealed |non-sealed )*(?:class|interface|record|enum|@interface)"
              + " (\\w+)");

  @Test
  void theClassMapIsTheGeneratedOne() throws IOException {
    String generated = classMap();
    Path documented = ROOT.resolve("docs/classes.md");
    String current =
        Files.exists(documented) ? Files.readString(documented, StandardCharsets.UTF_8) : "";
    if (!current.equals(generated)) {
      Files.writeString(Path.of("target", "classes.md"), generated, StandardCharsets.UTF_8);
    }
    assertThat(current)
        .as("docs/classes.md is out of date: copy crawler-cli/target/classes.md over it")
        .isEqualTo(generated);
  }

  @Test
  void theArchitectureNamesEveryTopic() throws IOException {
    String architecture = Files.readString(ROOT.resolve("docs/architecture.md"));
    List<String> missing = new ArrayList<>();
    for (TopicSpec<String, ?> topic : Topics.create(new InMemorySchemaRegistryClient()).all()) {
      if (!architecture.contains("`" + topic.name() + "`")) {
        missing.add(topic.name());
      }
    }
    assertThat(missing).as("topics docs/architecture.md does not name").isEmpty();
  }

  /** The class map: per module and package, each class with the first sentence of its Javadoc. */
  static String classMap() throws IOException {
    StringBuilder map = new StringBuilder();
    map.append("# Classes\n\n")
        .append("Every production class, by module and package, with the first sentence of its")
        .append(" Javadoc.\nGenerated from the sources; `ArchitectureDocTest` fails when it is")
        .append(
            " out of date.\nThe architecture around them: [architecture.md](architecture.md).\n");
    for (String module : MODULES) {
      Path sources = ROOT.resolve(module).resolve("src/main/java");
      if (!Files.isDirectory(sources)) {
        continue;
      }
      Map<String, Map<String, String>> byPackage = new TreeMap<>();
      try (Stream<Path> files = Files.walk(sources)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
          String name = file.getFileName().toString().replace(".java", "");
          if (name.equals("package-info")) {
            continue;
          }
          String pkg = sources.relativize(file.getParent()).toString().replace('/', '.');
          byPackage
              .computeIfAbsent(pkg, p -> new TreeMap<>())
              .put(name, firstSentence(Files.readString(file, StandardCharsets.UTF_8), name));
        }
      }
      map.append("\n## ").append(module).append('\n');
      byPackage.forEach(
          (pkg, classes) -> {
            map.append("\n### `").append(pkg).append("`\n\n");
            map.append("| class | what it is |\n|---|---|\n");
            classes.forEach(
                (name, sentence) ->
                    map.append("| `")
                        .append(name)
                        .append("` | ")
                        .append(sentence.replace("|", "\\|"))
                        .append(" |\n"));
          });
    }
    return map.toString();
  }

  /** The first sentence of the Javadoc on the top-level type, or an empty string. */
  static String firstSentence(String source, String name) {
    Matcher type = TYPE.matcher(source);
    int at = -1;
    while (type.find()) {
      if (type.group(1).equals(name)) {
        at = type.start();
        break;
      }
    }
    if (at < 0) {
      return "";
    }
    int end = source.lastIndexOf("*/", at);
    int start = source.lastIndexOf("/**", at);
    // only annotations may stand between the Javadoc and the type
    String between = start < 0 || end < start ? "x" : source.substring(end + 2, at).strip();
    if (!between.isEmpty() && !between.startsWith("@")) {
      return "";
    }
    String text =
        source
            .substring(start + 3, end)
            .replaceAll("(?m)^\\s*\\* ?", "")
            .replaceAll("\\{@(?:link|code|linkplain|value) ([^}]*)}", "`$1`")
            .replaceAll("<[^>]+>", "")
            .replaceAll("\\s+", " ")
            .strip();
    int stop = sentenceEnd(text);
    return stop < 0 ? text : text.substring(0, stop + 1);
  }

  private static int sentenceEnd(String text) {
    boolean inCode = false;
    int parentheses = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '`') {
        inCode = !inCode;
      } else if (!inCode && c == '(') {
        parentheses++;
      } else if (!inCode && c == ')') {
        parentheses = Math.max(0, parentheses - 1);
      } else if (c == '.'
          && !inCode
          && parentheses == 0
          && (i + 1 == text.length() || text.charAt(i + 1) == ' ')) {
        return i;
      }
    }
    return -1;
  }
}
