package dev.crawler.committer.domain;

import dev.crawler.committer.domain.MarkdownBlocks.Block;
import dev.crawler.committer.domain.MarkdownBlocks.Fence;
import dev.crawler.committer.domain.MarkdownBlocks.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Splits a document's markdown (GFM, as the parser writes the main content) into chunks for
 * retrieval, each under the headings it falls in.
 *
 * <p><b>Splitting.</b> A section is a heading and what follows it up to the next heading of the
 * same or a higher level. A section that fits {@code maxChars} is one chunk, its sub-sections in
 * it. One that does not is cut into its own content (its heading and the blocks before its first
 * sub-section) and its sub-sections, each cut the same way. Content is packed into chunks whole
 * block by whole block (blocks are separated by blank lines; a fenced code block or a table is one
 * block whatever blank lines a code block holds); a block that alone exceeds the bound is cut at
 * its last line end that fits, else sentence end, else space (each only where it leaves at least a
 * quarter of the bound before it), and last at the bound itself, never between the halves of a
 * surrogate pair. The last piece of a cut block starts the next chunk, which later blocks may join.
 * Content before the first heading is cut the same way with an empty heading path; the document as
 * a whole is not a section, so a document of two small top-level sections gives two chunks.
 *
 * <p><b>No merging of sections.</b> Small sibling sections are not packed together, though that
 * would give fewer small chunks: a chunk's id would then depend on its neighbours, and an edit or
 * an insertion in one section would change the ids (and the boundaries) of the chunks after it up
 * to the end of its parent. Here an edit changes the chunks of its own section only (all of them
 * where the section is kept whole; where its content is packed, the chunk it falls in and those
 * after it in that section whose boundaries move). The cost is small chunks for small sections (a
 * two-line "See also"), which keep their context through the heading path. A parent that fits is
 * kept whole, which is merging where it is cheapest.
 *
 * <p><b>Headings.</b> A chunk of a section's heading alone, when chunks of the section or its
 * sub-sections follow, is dropped: its text is in their heading path. Heading text is the heading's
 * plain text, at most {@value #MAX_HEADING_CHARS} characters. Skipped levels are not filled in: a
 * {@code ###} under a {@code #} has the path {@code [#, ###]}.
 *
 * <p><b>Overlap.</b> With {@code overlapChars > 0}, each chunk cut from the same section's content
 * after the first starts with up to that many characters of the content before it (from the start
 * of a word), and the pieces are cut that much shorter, so the bound holds. Never across sections.
 * The overlap makes a chunk's id depend on the tail of the chunk before it.
 *
 * <p><b>Ids.</b> The first 16 bytes, in hex, of SHA-256 over the document's URL (as given: pass the
 * canonical one), the heading path and the chunk's markdown (each length-prefixed UTF-8); not its
 * position, so chunks keep their ids when content is inserted before them. A chunk whose path and
 * markdown another chunk before it in the document has gets its occurrence number (1 for the
 * second) hashed in too; the first keeps the plain id, so only duplicates depend on what comes
 * before them.
 *
 * <p><b>Bounds.</b> Every chunk's markdown is at most {@code maxChars} characters (UTF-16 units),
 * with no exception: the last resort cuts at the bound. At most {@code maxChunks} chunks; the rest
 * of the markdown is then dropped and {@link Chunks#truncated()} says so. A chunk never starts with
 * a blank line nor ends with whitespace; a chunk whose plain text is blank is dropped. Cost is
 * linear in the markdown's length (plus the overlap once per chunk).
 *
 * <p>Immutable and thread-safe; each call has its own state.
 *
 * @param maxChars the most characters of markdown in a chunk, at least {@value #MIN_MAX_CHARS}
 * @param overlapChars characters a chunk repeats of the content before it, 0 to half of maxChars
 * @param maxChunks the most chunks of one document, at least 1
 */
public record Chunker(int maxChars, int overlapChars, int maxChunks) {

  /** Chunks of ~250 words of English: a paragraph or three, what retrieval models embed well. */
  public static final int DEFAULT_MAX_CHARS = 1_500;

  /** Below this a chunk is too small to carry its sentence and its list item. */
  public static final int MIN_MAX_CHARS = 200;

  /**
   * At the default size, 0.7 to 1.5 M characters of markdown (chunks of documentation pages average
   * about half the bound): pages beyond that are rare, though the parser keeps up to 2 M of one.
   */
  public static final int DEFAULT_MAX_CHUNKS = 1_000;

  /** The longest heading text kept in a heading path. */
  public static final int MAX_HEADING_CHARS = 200;

  /** Chunks of at most 1,500 characters, no overlap, at most 1,000 a document. */
  public static final Chunker DEFAULTS = new Chunker(DEFAULT_MAX_CHARS, 0, DEFAULT_MAX_CHUNKS);

  public Chunker {
    if (maxChars < MIN_MAX_CHARS) {
      throw new IllegalArgumentException(
          "maxChars must be at least " + MIN_MAX_CHARS + ": " + maxChars);
    }
    if (overlapChars < 0 || overlapChars > maxChars / 2) {
      throw new IllegalArgumentException(
          "overlapChars must be 0 to half of maxChars (" + maxChars / 2 + "): " + overlapChars);
    }
    if (maxChunks < 1) {
      throw new IllegalArgumentException("maxChunks must be at least 1: " + maxChunks);
    }
  }

  /**
   * The document's chunks, in the order of its markdown.
   *
   * @param url the document's canonical URL, hashed into the ids
   * @param markdown its markdown; empty or blank gives {@link Chunks#NONE}
   */
  public Chunks split(String url, String markdown) {
    if (markdown.isBlank()) {
      return Chunks.NONE;
    }
    return new Splitting(url, markdown).run();
  }

  /** One document's splitting: not thread-safe, one per call. */
  private final class Splitting {

    private final String md;
    private final List<Block> blocks;

    /** For each heading block, the index of the block its section ends before. */
    private final int[] sectionEnd;

    private final List<Chunk> chunks = new ArrayList<>();
    private final ChunkIds ids;
    private boolean stopped;
    private boolean truncated;

    Splitting(String url, String markdown) {
      this.md = markdown;
      this.ids = new ChunkIds(url);
      this.blocks = MarkdownBlocks.of(markdown);
      this.sectionEnd = sectionEnds(blocks);
    }

    Chunks run() {
      int first = nextHeading(0, blocks.size());
      pack(0, first, List.of());
      for (int i = first; i < blocks.size() && !stopped; i = sectionEnd[i]) {
        section(i, List.of());
      }
      return new Chunks(chunks, truncated);
    }

    /** The section of the heading block {@code heading}: whole where it fits, else cut. */
    private void section(int heading, List<String> parentPath) {
      Block head = blocks.get(heading);
      List<String> path = new ArrayList<>(parentPath.size() + 1);
      path.addAll(parentPath);
      path.add(headingText(head));
      path = List.copyOf(path);
      int end = sectionEnd[heading];
      int stop = blocks.get(end - 1).end();
      if (stop - head.start() <= maxChars) {
        emit(head.start(), stop, path);
        return;
      }
      int child = nextHeading(heading + 1, end);
      pack(heading, child, path);
      for (int i = child; i < end && !stopped; i = sectionEnd[i]) {
        section(i, path);
      }
    }

    private int nextHeading(int from, int to) {
      int i = from;
      while (i < to && blocks.get(i).kind() != Kind.HEADING) {
        i++;
      }
      return i;
    }

    /** Packs blocks {@code [from, to)} into chunks, whole blocks where they fit. */
    private void pack(int from, int to, List<String> path) {
      if (from >= to) {
        return;
      }
      Block first = blocks.get(from);
      Run run = new Run(path, first.start(), first.kind() == Kind.HEADING ? first : null);
      int start = -1;
      int end = -1;
      int budget = 0;
      for (int b = from; b < to && !stopped; b++) {
        Block block = blocks.get(b);
        if (start >= 0 && block.end() - start <= budget) {
          end = block.end();
          continue;
        }
        if (start >= 0) {
          piece(run, start, end);
        }
        // a new chunk starts with this block, or with the last piece of it
        start = block.length() <= run.budget() ? block.start() : cut(run, block);
        end = block.end();
        budget = run.budget();
      }
      if (start >= 0) {
        piece(run, start, end);
      }
    }

    /**
     * Cuts a block too large for a chunk into pieces, emitting all but the last; the start of the
     * last, which later blocks may join.
     */
    private int cut(Run run, Block block) {
      int s = block.start();
      boolean code = block.kind() == Kind.FENCE;
      while (!stopped) {
        int budget = run.budget();
        if (block.end() - s <= budget) {
          return s;
        }
        int cut = cutPoint(s, s + budget, code);
        piece(run, s, trimEnd(s, cut));
        s = nextStart(cut, block.end());
      }
      return s;
    }

    /**
     * Where to end a piece that starts at {@code s} and may reach {@code limit}: the last line end,
     * else sentence end, else space past a quarter of the way, else {@code limit}.
     */
    private int cutPoint(int s, int limit, boolean code) {
      int floor = s + (limit - s) / 4;
      int sentence = -1;
      int space = -1;
      for (int j = limit; j > floor; j--) {
        char c = md.charAt(j);
        if (c == '\n') {
          return j;
        }
        if (c == ' ' || c == '\t') {
          if (space < 0) {
            space = j;
          }
          if (sentence < 0 && !code && isSentenceEnd(md.charAt(j - 1))) {
            sentence = j;
          }
        }
      }
      if (sentence >= 0) {
        return sentence;
      }
      if (space >= 0) {
        return space;
      }
      // the last resort: a word longer than a quarter of the bound, cut at the bound
      return Character.isLowSurrogate(md.charAt(limit))
              && Character.isHighSurrogate(md.charAt(limit - 1))
          ? limit - 1
          : limit;
    }

    private static boolean isSentenceEnd(char c) {
      return c == '.' || c == '!' || c == '?' || c == '\u3002';
    }

    /** Where the piece after a cut starts: past the cut line's spaces and any blank lines. */
    private int nextStart(int cut, int end) {
      int p = cut;
      while (p < end && MarkdownBlocks.isSpace(md.charAt(p))) {
        p++;
      }
      while (p < end && md.charAt(p) == '\n') {
        int q = p + 1;
        while (q < end && MarkdownBlocks.isSpace(md.charAt(q))) {
          q++;
        }
        if (q < end && md.charAt(q) == '\n') {
          p = q; // a blank line
        } else {
          return p + 1; // the next line, its indentation kept
        }
      }
      return p;
    }

    private int trimEnd(int start, int end) {
      int e = end;
      while (e > start && Character.isWhitespace(md.charAt(e - 1))) {
        e--;
      }
      return e;
    }

    /** Emits the piece {@code [s, e)} of a run, with its overlap. */
    private void piece(Run run, int s, int e) {
      if (run.heading != null && s == run.heading.start() && e == run.heading.end()) {
        return; // the heading alone: its text is in the path of the chunks after it
      }
      int start = s;
      if (run.emitted && overlapChars > 0) {
        start = overlapStart(run.floor, s, Math.min(overlapChars, maxChars - (e - s)));
      }
      if (emit(start, e, run.path)) {
        run.emitted = true;
      }
    }

    /** The start of at most {@code allowed} characters before {@code s}: a word's start. */
    private int overlapStart(int floor, int s, int allowed) {
      int p = Math.max(floor, s - allowed);
      if (p > floor && !Character.isWhitespace(md.charAt(p - 1))) {
        while (p < s && !Character.isWhitespace(md.charAt(p))) {
          p++;
        }
      }
      while (p < s && Character.isWhitespace(md.charAt(p))) {
        p++;
      }
      return p;
    }

    /** Adds the chunk {@code [start, end)}; whether it was added (not blank, within the bound). */
    private boolean emit(int start, int end, List<String> path) {
      if (stopped) {
        return false;
      }
      String markdown = md.substring(start, end);
      String text = MarkdownText.of(markdown, openFenceAt(start));
      if (text.isBlank()) {
        return false;
      }
      if (chunks.size() == maxChunks) {
        truncated = true;
        stopped = true;
        return false;
      }
      chunks.add(
          new Chunk(chunks.size(), start, end, path, markdown, text, ids.next(path, markdown)));
      return true;
    }

    /** The fence a chunk starting at {@code offset} starts inside, or null. */
    private @Nullable Fence openFenceAt(int offset) {
      int low = 0;
      int high = blocks.size() - 1;
      int found = -1;
      while (low <= high) {
        int mid = (low + high) >>> 1;
        if (blocks.get(mid).start() <= offset) {
          found = mid;
          low = mid + 1;
        } else {
          high = mid - 1;
        }
      }
      if (found < 0) {
        return null;
      }
      Block block = blocks.get(found);
      Fence fence = block.fence();
      return fence != null && offset >= fence.bodyStart() && offset < block.end() ? fence : null;
    }

    private String headingText(Block heading) {
      String text = MarkdownText.heading(md, heading.start(), heading.end());
      if (text.length() <= MAX_HEADING_CHARS) {
        return text;
      }
      int end = MAX_HEADING_CHARS;
      if (Character.isHighSurrogate(text.charAt(end - 1))) {
        end--;
      }
      return text.substring(0, end);
    }

    /** The content of one section being packed, and whether a chunk of it was emitted yet. */
    private final class Run {
      private final List<String> path;
      private final int floor;
      private final @Nullable Block heading;
      private boolean emitted;

      Run(List<String> path, int floor, @Nullable Block heading) {
        this.path = path;
        this.floor = floor;
        this.heading = heading;
      }

      /** The room for a piece: the bound, less the overlap once a chunk precedes it. */
      int budget() {
        return emitted && overlapChars > 0 ? maxChars - overlapChars : maxChars;
      }
    }
  }

  /** For each heading block, the index of the first block after its section (others: unused). */
  private static int[] sectionEnds(List<Block> blocks) {
    int n = blocks.size();
    int[] ends = new int[n];
    Arrays.fill(ends, n);
    int[] open = new int[7];
    int depth = 0;
    for (int i = 0; i < n; i++) {
      Block block = blocks.get(i);
      if (block.kind() != Kind.HEADING) {
        continue;
      }
      while (depth > 0 && blocks.get(open[depth - 1]).level() >= block.level()) {
        ends[open[--depth]] = i;
      }
      open[depth++] = i;
    }
    return ends;
  }
}
