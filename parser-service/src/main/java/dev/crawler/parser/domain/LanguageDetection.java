package dev.crawler.parser.domain;

import com.optimaize.langdetect.NgramFrequencyData;
import com.optimaize.langdetect.ngram.NgramExtractor;
import com.optimaize.langdetect.ngram.NgramExtractors;
import com.optimaize.langdetect.profiles.LanguageProfileReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * The language of a document's text, by a statistical detector: Optimaize's n-gram language
 * profiles (the detector Apache Tika's language detection wraps; 71 languages) and its n-gram
 * extraction, scored by naive Bayes as Optimaize scores them.
 *
 * <p>The detector reads a sample of the text: up to {@value #SAMPLE_CHARS} characters from its
 * middle (a page's first words are often its menu), a sentence or two, which is enough for any
 * language it knows and keeps the cost per page flat whatever the page's length. Every n-gram of
 * the sample (1 to 3 characters) weighs once, each language's probability multiplied by the
 * n-gram's frequency in the language plus a small smoothing ({@value #ALPHA} in 10,000, Optimaize's
 * default), deterministically. Optimaize's own detector samples n-grams at random until its answer
 * settles: on text in no language it never settles, and spent 1 ms per page of the benchmark site's
 * made-up words, where this spends 0.14 ms (one core, C1 compiler); its variant for short texts,
 * which weighs every n-gram too, took an English report for Breton. It answers when the most
 * probable language has {@value #MIN_PROBABILITY} or more and the sample has at least {@value
 * #MIN_LETTERS} letters; otherwise the document has no detected language.
 *
 * <p>Loading the profiles takes about 0.7 s of CPU and some 70 MB of heap, once per JVM ({@link
 * #shared()}). Thread-safe.
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

  private static final class Shared {
    static final LanguageDetection INSTANCE = new LanguageDetection();
  }

  private final NgramExtractor ngrams = NgramExtractors.standard();
  private final NgramFrequencyData frequencies;

  private LanguageDetection() {
    try {
      frequencies =
          NgramFrequencyData.create(
              new LanguageProfileReader().readAllBuiltIn(), ngrams.getGramLengths());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the language profiles", e);
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
    int languages = frequencies.getLanguageList().size();
    double[] probability = new double[languages];
    Arrays.fill(probability, 1.0 / languages);
    double smoothing = ALPHA / 10_000;
    int weighed = 0;
    for (String ngram : ngrams.extractGrams(sample)) {
      double[] frequency = frequencies.getProbabilities(ngram);
      if (frequency == null) {
        continue; // an n-gram no language has says nothing
      }
      for (int i = 0; i < languages; i++) {
        probability[i] *= smoothing + frequency[i];
      }
      if (++weighed % RESCALE_EVERY == 0) {
        rescale(probability);
      }
    }
    if (weighed == 0) {
      return Optional.empty();
    }
    double sum = 0;
    int best = 0;
    for (int i = 0; i < languages; i++) {
      sum += probability[i];
      if (probability[i] > probability[best]) {
        best = i;
      }
    }
    if (probability[best] / sum < MIN_PROBABILITY) {
      return Optional.empty();
    }
    return Optional.of(frequencies.getLanguage(best).toString());
  }

  /** Divides the probabilities by the largest, so none shrinks below what a double holds. */
  private static void rescale(double[] probability) {
    double max = 0;
    for (double value : probability) {
      max = Math.max(max, value);
    }
    if (max > 0) {
      for (int i = 0; i < probability.length; i++) {
        probability[i] /= max;
      }
    }
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
