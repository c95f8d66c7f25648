package dev.crawler.parser.domain;

import com.optimaize.langdetect.profiles.LanguageProfile;
import com.optimaize.langdetect.profiles.LanguageProfileReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The language of a document's text, by a statistical detector: Optimaize's n-gram language
 * profiles (the detector Apache Tika's language detection wraps; 71 languages), scored by naive
 * Bayes as Optimaize scores them.
 *
 * <p>The detector reads a sample of the text: up to {@value #SAMPLE_CHARS} characters from its
 * middle (a page's first words are often its menu), a sentence or two, which is enough for any
 * language it knows and keeps the cost per page flat whatever the page's length. Every n-gram of
 * the sample weighs once — Optimaize's n-grams: 1 to 3 characters of the text padded with a space,
 * but a lone space and a trigram around one — each language's probability multiplied by the
 * n-gram's frequency in the language plus a small smoothing ({@value #ALPHA} in 10,000, Optimaize's
 * default); languages that fall a million-million times behind the first are dropped from the
 * count. The profiles are held in a table keyed by the n-gram's characters packed in a {@code
 * long}, so a page's n-grams are looked up without making a string of each.
 *
 * <p>Why not Optimaize's own detector: it samples n-grams at random until its answer settles, and
 * on text in no language (the benchmark site's made-up words) it never settles: 1 ms per page
 * against 0.02 ms here (one core, C1 compiler); its variant for short texts took an English report
 * for Breton; and looking n-grams up as strings was most of the cost left. {@code
 * LanguageDetectionTest} checks that this table holds exactly Optimaize's frequencies and this
 * extraction exactly its n-grams.
 *
 * <p>It answers when the most probable language has {@value #MIN_PROBABILITY} or more and the
 * sample has at least {@value #MIN_LETTERS} letters; otherwise the document has no detected
 * language. Loading the profiles takes about 0.7 s of CPU and some 60 MB of heap, once per JVM
 * ({@link #shared()}). Thread-safe.
 */
public final class LanguageDetection {

  /** The characters of a text the detector reads at most. */
  static final int SAMPLE_CHARS = 256;

  /** The least probability of the most probable language for an answer. */
  static final double MIN_PROBABILITY = 0.90;

  /** The least letters a sample needs for an answer: a few words say little of a language. */
  static final int MIN_LETTERS = 20;

  /** Optimaize's smoothing: an n-gram a language never has weighs this in 10,000. */
  static final double ALPHA = 0.5;

  /** UTF-8 bytes decoded for a sample: enough for its characters in any script (three each). */
  private static final int SAMPLE_BYTES = SAMPLE_CHARS * 3;

  /** How many n-grams weigh between two rescalings of the probabilities (they shrink fast). */
  private static final int RESCALE_EVERY = 8;

  /** A language this far behind the first after a rescaling is out of the count. */
  private static final double HOPELESS = 1e-12;

  private static final class Shared {
    static final LanguageDetection INSTANCE = new LanguageDetection();
  }

  private final String[] languages;

  /** Open addressing: packed n-gram, or 0 for a free slot. */
  private final long[] keys;

  /** The row of {@link #frequencies} of the n-gram in the same slot of {@link #keys}. */
  private final int[] rows;

  /** Per n-gram, its frequency in each language (occurrences over the language's n-grams). */
  private final float[][] frequencies;

  private LanguageDetection() {
    List<LanguageProfile> profiles;
    try {
      profiles = new LanguageProfileReader().readAllBuiltIn();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the language profiles", e);
    }
    languages = new String[profiles.size()];
    Map<Long, float[]> table = new HashMap<>();
    for (int language = 0; language < profiles.size(); language++) {
      LanguageProfile profile = profiles.get(language);
      languages[language] = profile.getLocale().toString();
      for (int length = 1; length <= 3; length++) {
        double occurrences = profile.getNumGramOccurrences(length);
        for (Map.Entry<String, Integer> gram : profile.iterateGrams(length)) {
          float[] row = table.computeIfAbsent(key(gram.getKey()), k -> new float[profiles.size()]);
          row[language] = (float) (gram.getValue() / occurrences);
        }
      }
    }
    int slots = Integer.highestOneBit(table.size() * 2 - 1) << 1;
    keys = new long[slots];
    rows = new int[slots];
    frequencies = new float[table.size()][];
    int row = 0;
    for (Map.Entry<Long, float[]> gram : table.entrySet()) {
      int slot = slotOf(gram.getKey());
      keys[slot] = gram.getKey();
      rows[slot] = row;
      frequencies[row++] = gram.getValue();
    }
  }

  /** The detector of this JVM, its profiles loaded on the first call. */
  public static LanguageDetection shared() {
    return Shared.INSTANCE;
  }

  /** The language of the text, as a BCP 47 tag ({@code en}, {@code zh-CN}), when certain enough. */
  public Optional<String> detect(String text) {
    String sample =
        text.length() <= SAMPLE_CHARS
            ? text
            : text.substring(
                (text.length() - SAMPLE_CHARS) / 2, (text.length() + SAMPLE_CHARS) / 2);
    return detectSample(sample);
  }

  /**
   * The language of a text given in UTF-8 ({@link #detect(String)}), decoding only the sample read.
   */
  public Optional<String> detectUtf8(byte[] utf8Text) {
    if (utf8Text.length <= SAMPLE_BYTES) {
      return detect(new String(utf8Text, StandardCharsets.UTF_8));
    }
    int start = (utf8Text.length - SAMPLE_BYTES) / 2;
    int end = start + SAMPLE_BYTES;
    // a sample starts and ends between characters: not on a continuation byte (10xxxxxx)
    while (start < end && (utf8Text[start] & 0xC0) == 0x80) {
      start++;
    }
    while (end < utf8Text.length && (utf8Text[end] & 0xC0) == 0x80) {
      end++;
    }
    return detect(new String(utf8Text, start, end - start, StandardCharsets.UTF_8));
  }

  private Optional<String> detectSample(String sample) {
    if (!hasLetters(sample, MIN_LETTERS)) {
      return Optional.empty();
    }
    int count = languages.length;
    double[] probability = new double[count];
    Arrays.fill(probability, 1.0 / count);
    int[] live = new int[count];
    for (int i = 0; i < count; i++) {
      live[i] = i;
    }
    int alive = count;
    double smoothing = ALPHA / 10_000;
    char[] text = padded(sample);
    int weighed = 0;
    for (int at = 0; at < text.length; at++) {
      for (int length = 1; length <= 3 && at + length <= text.length; length++) {
        if (!isCounted(text, at, length)) {
          continue;
        }
        float[] frequency = frequencyOf(key(text, at, length));
        if (frequency == null) {
          continue; // an n-gram no language has says nothing
        }
        for (int i = 0; i < alive; i++) {
          int language = live[i];
          probability[language] *= smoothing + frequency[language];
        }
        if (++weighed % RESCALE_EVERY == 0) {
          alive = rescale(probability, live, alive);
        }
      }
    }
    if (weighed == 0) {
      return Optional.empty();
    }
    double sum = 0;
    int best = 0;
    for (int i = 0; i < count; i++) {
      sum += probability[i];
      if (probability[i] > probability[best]) {
        best = i;
      }
    }
    if (probability[best] / sum < MIN_PROBABILITY) {
      return Optional.empty();
    }
    return Optional.of(languages[best]);
  }

  /**
   * Divides the live languages' probabilities by the largest, so none shrinks below what a double
   * holds, and drops those hopelessly behind; returns how many are left.
   */
  private static int rescale(double[] probability, int[] live, int alive) {
    double max = 0;
    for (int i = 0; i < alive; i++) {
      max = Math.max(max, probability[live[i]]);
    }
    if (max == 0) {
      return alive;
    }
    int kept = 0;
    for (int i = 0; i < alive; i++) {
      int language = live[i];
      probability[language] /= max;
      if (probability[language] >= HOPELESS) {
        live[kept++] = language;
      } else {
        probability[language] = 0;
      }
    }
    return kept;
  }

  /** The text with a space before and after, as Optimaize pads it (not twice). */
  static char[] padded(String text) {
    boolean before = text.isEmpty() || text.charAt(0) != ' ';
    boolean after = text.isEmpty() || text.charAt(text.length() - 1) != ' ';
    char[] chars = new char[text.length() + (before ? 1 : 0) + (after ? 1 : 0)];
    if (before) {
      chars[0] = ' ';
    }
    text.getChars(0, text.length(), chars, before ? 1 : 0);
    if (after) {
      chars[chars.length - 1] = ' ';
    }
    return chars;
  }

  /** Optimaize's standard filter: no lone space, no trigram with a space in its middle. */
  static boolean isCounted(char[] text, int at, int length) {
    return switch (length) {
      case 1 -> text[at] != ' ';
      case 3 -> text[at + 1] != ' ';
      default -> true;
    };
  }

  /** An n-gram of 1 to 3 characters packed in a long: its length, then its characters. */
  static long key(char[] text, int at, int length) {
    long key = length;
    for (int i = 0; i < 3; i++) {
      key = key << 16 | (i < length ? text[at + i] : 0);
    }
    return key;
  }

  static long key(String gram) {
    return key(gram.toCharArray(), 0, gram.length());
  }

  /** The n-gram's frequencies by language, or null when no language has it. */
  float[] frequencyOf(long key) {
    int mask = keys.length - 1;
    for (int slot = hash(key) & mask; ; slot = (slot + 1) & mask) {
      long found = keys[slot];
      if (found == key) {
        return frequencies[rows[slot]];
      }
      if (found == 0) {
        return null;
      }
    }
  }

  private int slotOf(long key) {
    int mask = keys.length - 1;
    int slot = hash(key) & mask;
    while (keys[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private static int hash(long key) {
    long mixed = key * 0x9E3779B97F4A7C15L;
    return (int) (mixed ^ (mixed >>> 32));
  }

  /** The languages, in the order of the frequencies' columns. */
  List<String> languages() {
    return List.of(languages);
  }

  private static boolean hasLetters(String text, int least) {
    int letters = 0;
    for (int i = 0; i < text.length() && letters < least; i++) {
      if (Character.isLetter(text.charAt(i))) {
        letters++;
      }
    }
    return letters >= least;
  }
}
