package dev.crawler.committer.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ChunkerTest {

  private static final String URL = "https://docs.example/guide";

  /** The smallest bound: documents of a few hundred characters show every rule. */
  private static final Chunker SMALL = new Chunker(200, 0, 1_000);

  @Test
  void keepsSectionsThatFitWholeWithTheirSubSections() {
    String intro = "# Guide\n\n" + words("intro", 120);
    String install =
        "## Install\n\n" + words("apt", 60) + "\n\n### On Debian\n\n" + words("deb", 60);
    String use = "## Use\n\n" + words("run", 150);
    String markdown = intro + "\n\n" + install + "\n\n" + use;

    List<Chunk> chunks = SMALL.split(URL, markdown).chunks();

    assertThat(chunks).extracting(Chunk::markdown).containsExactly(intro, install, use);
    assertThat(chunks)
        .extracting(Chunk::headingPath)
        .containsExactly(List.of("Guide"), List.of("Guide", "Install"), List.of("Guide", "Use"));
    assertThat(chunks).extracting(Chunk::position).containsExactly(0, 1, 2);
  }

  @Test
  void splitsALongSectionAtBlockBoundaries() {
    String[] paragraphs = new String[5];
    for (int i = 0; i < paragraphs.length; i++) {
      paragraphs[i] = words("p" + i, 90);
    }
    String markdown = "## Notes\n\n" + String.join("\n\n", paragraphs);

    List<Chunk> chunks = SMALL.split(URL, markdown).chunks();

    // the heading and two paragraphs are 192 characters; three would be 284
    assertThat(chunks)
        .extracting(Chunk::markdown)
        .containsExactly(
            "## Notes\n\n" + paragraphs[0] + "\n\n" + paragraphs[1],
            paragraphs[2] + "\n\n" + paragraphs[3],
            paragraphs[4]);
    assertThat(chunks)
        .allSatisfy(chunk -> assertThat(chunk.headingPath()).containsExactly("Notes"));
  }

  @Test
  void neverSplitsACodeBlockThatFitsThoughItHasBlankLines() {
    String code =
        "```python\ndef first():\n    return 1\n\n\ndef second():\n"
            + "    return 2  # the blank lines above are not block boundaries\n```";
    String markdown =
        "## Code\n\n" + words("before", 100) + "\n\n" + code + "\n\n" + words("after", 40);

    List<Chunk> chunks = SMALL.split(URL, markdown).chunks();

    assertThat(chunks).hasSize(2);
    assertThat(chunks.get(1).markdown()).isEqualTo(code + "\n\n" + words("after", 40));
    assertThat(chunks.get(1).text())
        .startsWith("def first():\n    return 1\n\ndef second():")
        .doesNotContain("```");
  }

  @Test
  void splitsACodeBlockTooLargeAloneAtLineEndsAndReadsEveryPieceAsCode() {
    StringBuilder code = new StringBuilder("~~~ruby\n");
    for (int i = 0; i < 40; i++) {
      code.append("# comment ").append(i).append("\nputs ").append(i).append('\n');
    }
    String markdown = "## Script\n\n" + code + "~~~";

    List<Chunk> chunks = SMALL.split(URL, markdown).chunks();

    assertThat(chunks).hasSizeGreaterThan(3);
    for (Chunk chunk : chunks) {
      assertThat(chunk.markdown().length()).isLessThanOrEqualTo(200);
      assertThat(chunk.start() == 0 || markdown.charAt(chunk.start() - 1) == '\n').isTrue();
      assertThat(chunk.end() == markdown.length() || markdown.charAt(chunk.end()) == '\n').isTrue();
      assertThat(chunk.headingPath()).containsExactly("Script");
    }
    // a piece from the middle of the block is code: its # lines are comments, not headings
    assertThat(chunks.get(1).text()).startsWith("# comment").doesNotContain("~~~");
    assertThat(String.join("\n", chunks.stream().map(Chunk::markdown).toList()))
        .isEqualTo(markdown.replace("## Script\n\n", ""));
  }

  @Test
  void neverSplitsATableThatFits() {
    String table =
        "| Name | Port |\n| --- | ---: |\n| http | 80 |\n| https | 443 |\n| gopher | 70 |\n"
            + "| finger | 79 |\n| whois | 43 |\n| telnet | 23 |";
    String markdown = "## Ports\n\n" + words("lead", 120) + "\n\n" + table;

    List<Chunk> chunks = SMALL.split(URL, markdown).chunks();

    assertThat(chunks)
        .extracting(Chunk::markdown)
        .containsExactly("## Ports\n\n" + words("lead", 120), table);
    assertThat(chunks.get(1).text())
        .isEqualTo(
            "Name\tPort\nhttp\t80\nhttps\t443\ngopher\t70\nfinger\t79\nwhois\t43\ntelnet\t23");
  }

  @Test
  void splitsATableTooLargeAloneBetweenRows() {
    StringBuilder table = new StringBuilder("| Key | Value |\n| --- | --- |");
    for (int i = 0; i < 30; i++) {
      table.append("\n| key").append(i).append(" | value ").append(i).append(" |");
    }
    String markdown = table.toString();

    List<Chunk> chunks = SMALL.split(URL, markdown).chunks();

    assertThat(chunks).hasSizeGreaterThan(2);
    assertThat(chunks)
        .allSatisfy(
            chunk -> {
              assertThat(chunk.markdown()).startsWith("| ").endsWith(" |");
              assertThat(chunk.markdown().length()).isLessThanOrEqualTo(200);
            });
    assertThat(chunks.get(1).text()).doesNotContain("|").contains("\t");
  }

  /** # A, ### C (a skipped level), ## B, #### D: each section too large to keep its children. */
  private static final String NESTED =
      "# A\n\n"
          + words("a", 150)
          + "\n\n### C\n\n"
          + words("c", 150)
          + "\n\n## B\n\n"
          + words("b", 150)
          + "\n\n#### D\n\n"
          + words("d", 150)
          + "\n\n# E\n\n"
          + words("e", 150);

  @ParameterizedTest(name = "chunk {0} is under {1}")
  @CsvSource({"0, A", "1, A/C", "2, A/B", "3, A/B/D", "4, E"})
  void givesEachChunkTheHeadingsItFallsUnderSkippedLevelsIncluded(int position, String path) {
    List<Chunk> chunks = SMALL.split(URL, NESTED).chunks();

    assertThat(chunks).hasSize(5);
    assertThat(chunks.get(position).headingPath()).containsExactly(path.split("/"));
  }

  @Test
  void headingTextIsPlainText() {
    String markdown =
        "## Install `crawler` on [Debian](https://debian.example/) \\#1 ##\n\n"
            + words("text", 250);

    List<Chunk> chunks = SMALL.split(URL, markdown).chunks();

    assertThat(chunks).isNotEmpty();
    assertThat(chunks.get(0).headingPath()).containsExactly("Install crawler on Debian #1");
  }

  @Test
  void dropsAHeadingAloneWhenItsSubSectionsCarryItInTheirPath() {
    String debian = "### Debian\n\n" + words("deb", 150);
    String fedora = "### Fedora\n\n" + words("rpm", 150);
    String markdown = "## Install\n\n" + debian + "\n\n" + fedora;

    List<Chunk> chunks = SMALL.split(URL, markdown).chunks();

    assertThat(chunks).extracting(Chunk::markdown).containsExactly(debian, fedora);
    assertThat(chunks.get(0).headingPath()).containsExactly("Install", "Debian");
  }

  @Test
  void keepsAHeadingWithNothingUnderIt() {
    String markdown = "## Deprecated\n\n## Current\n\n" + words("now", 250);

    List<Chunk> chunks = SMALL.split(URL, markdown).chunks();

    assertThat(chunks.get(0).markdown()).isEqualTo("## Deprecated");
    assertThat(chunks.get(0).text()).isEqualTo("Deprecated");
  }

  /** Three top-level sections; the changes below touch the second only, or add a fourth. */
  private static String sections(String second, String appended) {
    return "## One\n\n"
        + words("one", 150)
        + "\n\n## Two\n\n"
        + second
        + "\n\n## Three\n\n"
        + words("three", 150)
        + appended;
  }

  @Test
  void idsStayWhenAnotherSectionChanges() {
    List<String> before = ids(SMALL.split(URL, sections(words("two", 150), "")));
    List<String> after = ids(SMALL.split(URL, sections(words("deux", 170), "")));

    assertThat(after).hasSize(3);
    assertThat(after.get(0)).isEqualTo(before.get(0));
    assertThat(after.get(1)).isNotEqualTo(before.get(1));
    assertThat(after.get(2)).isEqualTo(before.get(2));
  }

  @Test
  void idsStayWhenASectionIsAppendedOrInserted() {
    List<String> before = ids(SMALL.split(URL, sections(words("two", 150), "")));
    List<String> appended =
        ids(SMALL.split(URL, sections(words("two", 150), "\n\n## Four\n\n" + words("four", 99))));
    List<String> inserted =
        ids(
            SMALL.split(
                URL, "## Zero\n\n" + words("zero", 99) + "\n\n" + sections(words("two", 150), "")));

    assertThat(appended).hasSize(4).startsWith(before.toArray(String[]::new));
    assertThat(inserted).hasSize(4).endsWith(before.toArray(String[]::new));
  }

  @Test
  void onlyTheChunkWhoseTextChangesGetsANewId() {
    String[] paragraphs = {words("p0", 90), words("p1", 90), words("p2", 90), words("p3", 90)};
    String markdown = "## Notes\n\n" + String.join("\n\n", paragraphs);
    List<Chunk> before = SMALL.split(URL, markdown).chunks();

    List<Chunk> after = SMALL.split(URL, markdown.replace(paragraphs[2], words("P2", 90))).chunks();

    assertThat(after).hasSameSizeAs(before).hasSize(2);
    assertThat(after.get(0).id()).isEqualTo(before.get(0).id());
    assertThat(after.get(1).id()).isNotEqualTo(before.get(1).id());
  }

  @Test
  void anIdIsTheDocumentedDigestOfUrlPathAndMarkdown() throws Exception {
    String markdown = "## Café\n\n" + words("é", 150);
    Chunk chunk = SMALL.split(URL, markdown).chunks().get(0);

    // length-prefixed UTF-8: URL, path size and elements, markdown; first 16 bytes in hex
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    for (Object field : List.of(URL, 1, "Café", markdown)) {
      if (field instanceof Integer count) {
        out.writeInt(count);
      } else {
        byte[] utf8 = ((String) field).getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
      }
    }
    byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes.toByteArray());

    assertThat(chunk.id()).isEqualTo(HexFormat.of().formatHex(digest, 0, 16));
  }

  @Test
  void idsDependOnTheUrlAndTheHeadingPath() {
    String body = words("same", 150);
    Chunk here = SMALL.split(URL, "## A\n\n" + body).chunks().get(0);

    assertThat(SMALL.split(URL + "/other", "## A\n\n" + body).chunks().get(0).id())
        .isNotEqualTo(here.id());
    assertThat(SMALL.split(URL, "# Top\n\n" + words("x", 190) + "\n\n## A\n\n" + body).chunks())
        .extracting(Chunk::id)
        .doesNotContain(here.id());
    assertThat(here.id()).matches("[0-9a-f]{32}");
  }

  @Test
  void duplicateChunksGetDistinctIdsAndTheFirstKeepsItsOwn() {
    String note = "## Note\n\n" + words("same", 150);
    String a = "## A\n\n" + words("a", 150);
    String b = "## B\n\n" + words("b", 150);
    List<Chunk> chunks = SMALL.split(URL, String.join("\n\n", a, note, b, note)).chunks();
    List<Chunk> inserted =
        SMALL
            .split(URL, String.join("\n\n", "## Z\n\n" + words("z", 150), a, note, b, note))
            .chunks();

    assertThat(chunks).hasSize(4);
    assertThat(chunks.get(1).markdown()).isEqualTo(chunks.get(3).markdown());
    assertThat(ids(chunks)).doesNotHaveDuplicates();
    assertThat(ids(inserted).subList(1, 5)).isEqualTo(ids(chunks));
    assertThat(chunks.get(1).id()).isEqualTo(SMALL.split(URL, note).chunks().get(0).id());
  }

  @Test
  void splitsADocumentWithoutHeadingsAtItsBlocks() {
    String markdown =
        String.join("\n\n", words("one", 120), "- item\n- item two", words("three", 150));

    List<Chunk> chunks = SMALL.split(URL, markdown).chunks();

    assertThat(chunks)
        .extracting(Chunk::markdown)
        .containsExactly(words("one", 120) + "\n\n- item\n- item two", words("three", 150));
    assertThat(chunks).allSatisfy(chunk -> assertThat(chunk.headingPath()).isEmpty());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "\n", "  \n\n \t \n", "---\n\n***"})
  void anEmptyDocumentGivesNoChunks(String markdown) {
    Chunks chunks = Chunker.DEFAULTS.split(URL, markdown);

    assertThat(chunks.chunks()).isEmpty();
    assertThat(chunks.truncated()).isFalse();
  }

  @ParameterizedTest(name = "{0} sections, at most {1} chunks: {2} chunks, truncated {3}")
  @CsvSource({"10, 3, 3, true", "10, 10, 10, false", "10, 11, 10, false", "1, 1, 1, false"})
  void keepsAtMostMaxChunks(int sections, int maxChunks, int expected, boolean truncated) {
    StringBuilder markdown = new StringBuilder();
    for (int i = 0; i < sections; i++) {
      markdown.append("## S").append(i).append("\n\n").append(words("s" + i, 150)).append("\n\n");
    }

    Chunks chunks = new Chunker(200, 0, maxChunks).split(URL, markdown.toString());

    assertThat(chunks.chunks()).hasSize(expected);
    assertThat(chunks.truncated()).isEqualTo(truncated);
  }

  @Test
  void splitsAParagraphTooLargeAloneAtSentenceEnds() {
    String paragraph =
        String.join(" ", words("first", 120), words("second", 120), words("third", 120));

    List<Chunk> chunks = SMALL.split(URL, paragraph).chunks();

    assertThat(chunks)
        .extracting(Chunk::markdown)
        .containsExactly(words("first", 120), words("second", 120), words("third", 120));
  }

  static Stream<Arguments> documents() {
    String emoji = "\uD83D\uDE00";
    return Stream.of(
        Arguments.of("one word longer than the bound", "x".repeat(1_000), true),
        Arguments.of("emoji without spaces", emoji.repeat(450), true),
        Arguments.of("a long list", list(60), false),
        Arguments.of("sentences", words("said", 2_000), false),
        Arguments.of("nested sections", NESTED.repeat(3), false),
        Arguments.of("long heading", "# " + "h".repeat(500) + "\n\n" + words("w", 300), true),
        Arguments.of(
            "code and text",
            ("## C\n\n```\n" + "x = 1\n".repeat(60) + "```\n\n" + words("t", 300) + "\n\n")
                .repeat(3),
            false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("documents")
  void neverExceedsTheBoundAndKeepsTheChunksContract(
      String name, String markdown, boolean cutAtTheBound) {
    for (Chunker chunker : List.of(SMALL, new Chunker(300, 100, 1_000))) {
      List<Chunk> chunks = chunker.split(URL, markdown).chunks();

      assertThat(chunks).isNotEmpty();
      int end = 0;
      for (int i = 0; i < chunks.size(); i++) {
        Chunk chunk = chunks.get(i);
        assertThat(chunk.position()).isEqualTo(i);
        assertThat(chunk.markdown())
            .isEqualTo(markdown.substring(chunk.start(), chunk.end()))
            .hasSizeLessThanOrEqualTo(chunker.maxChars())
            .doesNotStartWith("\n")
            .isEqualTo(chunk.markdown().stripTrailing());
        assertThat(chunk.markdown().lines().findFirst().orElseThrow()).isNotBlank();
        assertThat(chunk.text()).isNotBlank().hasSizeLessThanOrEqualTo(chunk.markdown().length());
        assertThat(Character.isLowSurrogate(chunk.markdown().charAt(0))).isFalse();
        assertThat(
                Character.isHighSurrogate(chunk.markdown().charAt(chunk.markdown().length() - 1)))
            .isFalse();
        // in order; overlapping the one before only by the overlap
        assertThat(chunk.start()).isGreaterThanOrEqualTo(end - chunker.overlapChars());
        end = chunk.end();
      }
      assertThat(chunks.stream().anyMatch(chunk -> isCutInAWord(markdown, chunk.end())))
          .as("a chunk cut inside a word, at the bound")
          .isEqualTo(cutAtTheBound);
    }
  }

  @Test
  void overlappingChunksRepeatTheTailOfTheChunkBeforeWithinTheBound() {
    String[] sentences = new String[8];
    for (int i = 0; i < sentences.length; i++) {
      sentences[i] = words("s" + i, 70);
    }
    String markdown =
        "## Long\n\n" + String.join(" ", sentences) + "\n\n## Next\n\n" + words("n", 100);
    Chunker chunker = new Chunker(200, 80, 1_000);

    List<Chunk> chunks = chunker.split(URL, markdown).chunks();

    assertThat(chunks)
        .allSatisfy(chunk -> assertThat(chunk.markdown()).hasSizeLessThanOrEqualTo(200));
    for (int i = 1; i < chunks.size() - 1; i++) {
      Chunk previous = chunks.get(i - 1);
      Chunk chunk = chunks.get(i);
      assertThat(chunk.start()).isLessThan(previous.end());
      assertThat(previous.markdown()).contains(markdown.substring(chunk.start(), previous.end()));
    }
    // never across sections: the next section starts fresh
    assertThat(chunks.get(chunks.size() - 1).markdown()).startsWith("## Next");
  }

  @ParameterizedTest(name = "maxChars {0}, overlap {1}, maxChunks {2}")
  @CsvSource({"199, 0, 10", "200, -1, 10", "200, 101, 10", "200, 0, 0"})
  void refusesSettingsOutOfRange(int maxChars, int overlap, int maxChunks) {
    assertThatThrownBy(() -> new Chunker(maxChars, overlap, maxChunks))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void chunksWhatTheParserWritesAsPlainText() {
    String markdown =
        "# Release notes\n\n"
            + "Read the [guide](https://docs.example/guide) for **all** the _new_ options: "
            + "`crawler --help`.\n\n"
            + "> Upgrading from 1.x?\n> See [Migrating](https://docs.example/migrate).";

    List<Chunk> chunks = Chunker.DEFAULTS.split(URL, markdown).chunks();

    assertThat(chunks).hasSize(1);
    assertThat(chunks.get(0).text())
        .isEqualTo(
            "Release notes\n\nRead the guide for all the new options: crawler --help.\n\n"
                + "Upgrading from 1.x?\nSee Migrating.");
  }

  private static List<String> ids(Chunks chunks) {
    return ids(chunks.chunks());
  }

  private static List<String> ids(List<Chunk> chunks) {
    return new ArrayList<>(chunks.stream().map(Chunk::id).toList());
  }

  /** Words made of {@code word} and a number, {@code length} characters, ending with a period. */
  static String words(String word, int length) {
    StringBuilder text = new StringBuilder(length + word.length() + 4);
    for (int i = 0; text.length() < length; i++) {
      if (text.length() > 0) {
        text.append(' ');
      }
      text.append(word).append(i % 10);
    }
    text.setLength(length - 1);
    if (text.charAt(length - 2) == ' ') {
      text.setCharAt(length - 2, 'x');
    }
    return text.append('.').toString();
  }

  private static boolean isCutInAWord(String markdown, int end) {
    return end < markdown.length()
        && !Character.isWhitespace(markdown.charAt(end))
        && !Character.isWhitespace(markdown.charAt(end - 1));
  }

  /** A bullet list of {@code items} items. */
  private static String list(int items) {
    StringBuilder list = new StringBuilder();
    for (int i = 0; i < items; i++) {
      list.append(i == 0 ? "" : "\n").append("- item ").append(i).append(" of the list");
    }
    return list.toString();
  }
}
