package dev.crawler.parser.domain;

import com.optimaize.langdetect.cybozu.util.CharNormalizer;
import com.optimaize.langdetect.profiles.BuiltInLanguages;
import com.optimaize.langdetect.profiles.LanguageProfile;
import com.optimaize.langdetect.profiles.LanguageProfileReader;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The language of a document's text, by a statistical detector: Optimaize's n-gram language
 * profiles (the detector Apache Tika's language detection wraps; 70 languages), scored by naive
 * Bayes as Optimaize scores them.
 *
 * <p><b>What it reads.</b> A text of at most {@value #SAMPLES} × {@value #SAMPLE_CHARS} characters
 * is read whole, cut into consecutive samples of at most {@value #SAMPLE_CHARS}. A longer text is
 * read in {@value #SAMPLES} samples of {@value #SAMPLE_CHARS} characters spread evenly over it
 * (centred on the middles of {@value #SAMPLES} equal parts). Each edge of a sample moves up to
 * {@value #WORD_SLACK} characters forward to fall between two words. So at most {@code SAMPLES ×
 * (SAMPLE_CHARS + WORD_SLACK)} characters (1,472) are read per text, whatever its length; for a
 * text given in UTF-8 only the samples' bytes are decoded.
 *
 * <p><b>Scripts.</b> The letters of a sample are grouped by script (Han, hiragana and katakana
 * together); each group with at least {@value #MIN_LETTERS} letters is a part, scored on its own
 * with the other scripts' letters made spaces, among the languages written in that script (those
 * whose profile has most of its letters in it): Latin command names in a Korean paragraph are not
 * Korean, and Chinese text is never taken for Korean (Optimaize's Korean profile holds Hanja). A
 * script only one language is written in (hangul, Greek) names it without scoring. An ideograph,
 * kana or hangul syllable counts as {@value #WIDE_LETTER} letters, about its length spelled in
 * Latin letters. (Optimaize instead drops a script with at most 0.3 of the main script's letters.)
 *
 * <p><b>How a part is scored.</b> Every character is normalized exactly as Optimaize's {@code
 * TextObject} does it, by its {@code CharNormalizer} (the profiles were built from normalized text:
 * every hiragana is あ, every hangul syllable 가, kanji map to one representative of their class,
 * Latin punctuation and digits are spaces), and runs of spaces collapse. Every n-gram of the part
 * then weighs once — Optimaize's n-grams: 1 to 3 characters of the text padded with a space, but a
 * lone space and a trigram around one — each language's likelihood multiplied by the n-gram's
 * frequency in the language plus a small smoothing ({@value #ALPHA} in 10,000, Optimaize's
 * default). The product is held as a sum of logarithms, {@code log(1 + frequency / smoothing)} per
 * language that has the n-gram (the smoothing's own factor is the same for every language and
 * cancels), in fixed point: integer sums, so the score is the same whatever the order of the words.
 * Every candidate language is scored on every n-gram; none is dropped midway. A sample's repeated
 * n-grams are looked up once. The weights are held in a table keyed by the n-gram's characters
 * packed in a {@code long}, so n-grams are looked up without making a string of each.
 *
 * <p><b>The answer.</b> A part votes, with its letters, for its most probable language when that
 * language's probability among the candidates is at least {@value #MIN_PROBABILITY}; a part less
 * certain abstains, its letters still counted. The text's language is the one whose votes are at
 * least {@value #MIN_SHARE} of the letters of all parts: the language most of the text is in (four
 * paragraphs in English and one in German are English). Otherwise the text has no detected
 * language, and {@link #combine} lets the declared one stand. Every part's letters are counted
 * before any is scored, so scoring stops once no vote left can change the answer (after 6 of 8
 * samples of a text in one language): the answer is the one all parts would give.
 *
 * <p>Why not Optimaize's own detector: it samples n-grams at random until its answer settles, and
 * on text in no language (made-up words) it never settles: 1 ms per page; its variant for short
 * texts took an English report for Breton. {@code LanguageDetectionTest} checks that the table
 * holds exactly Optimaize's frequencies, the normalization is exactly Optimaize's and the
 * extraction yields exactly its n-grams.
 *
 * <p>Cost: about 0.13 ms of CPU per page under C1 with the tables in the processor's caches, about
 * 0.18 ms when the rest of a page's work has evicted them, as in a crawl ({@code
 * LanguageBenchmark}, with and without {@code EVICT_MB}). Its tables (5 MB) are built from the
 * profiles by the build ({@link LanguageTablesWriter}) and read once per JVM ({@link #shared()}):
 * about 0.1 s of CPU, where building them at start took 0.6 s and some 60 MB of heap. Thread-safe:
 * each thread scores in scratch space of its own.
 */
public final class LanguageDetection {

  /** How many samples of a text the detector reads at most. */
  static final int SAMPLES = 8;

  /** The characters of a sample (before its edges move to fall between words). */
  static final int SAMPLE_CHARS = 160;

  /** How far a sample's edge moves forward at most to fall between two words. */
  static final int WORD_SLACK = 24;

  /** The least probability of a sample's most probable language for its vote. */
  static final double MIN_PROBABILITY = 0.90;

  /** The least share of the samples' letters the votes for a language need for an answer. */
  static final double MIN_SHARE = 0.65;

  /** The least letters a sample needs to count: a few words say little of a language. */
  static final int MIN_LETTERS = 20;

  /** Optimaize's smoothing: an n-gram a language never has weighs this in 10,000. */
  static final double ALPHA = 0.5;

  /** The units of a weight: 1 in 65,536 (a weight is below 10, 24 bits hold it). */
  static final int WEIGHT_UNITS = 1 << 16;

  /** A language this many nats behind the first adds nothing a double can hold to the sum. */
  private static final double NEGLIGIBLE = 40;

  /**
   * The letters an ideograph, kana or hangul syllable counts for: about its length spelled in Latin
   * letters (a hangul syllable is two or three jamo), so a Korean paragraph is not outweighed by
   * the English names in it.
   */
  static final int WIDE_LETTER = 3;

  /** The script group of a character that is no letter (digits, punctuation, spaces). */
  private static final int NONE = 0xFE;

  /** The script group of a mark: the letter's it is on. */
  private static final int MARK = 0xFF;

  /**
   * Languages the detector tells apart badly: a declared one of a pair stands against the other.
   */
  private static final Set<Set<String>> SIBLINGS =
      Set.of(
          Set.of("no", "da"),
          Set.of("id", "ms"),
          Set.of("sr", "hr"),
          Set.of("sr", "bs"),
          Set.of("hr", "bs"),
          Set.of("gl", "pt"),
          Set.of("ca", "oc"),
          Set.of("cs", "sk"),
          Set.of("af", "nl"),
          Set.of("an", "es"),
          Set.of("ast", "es"));

  /** Older or broader codes of the detector's languages. */
  private static final Map<String, String> ALIASES =
      Map.of("nb", "no", "nn", "no", "iw", "he", "in", "id", "ji", "yi", "fil", "tl");

  /** The primary language subtags of the detector's languages. */
  private static final Set<String> KNOWN =
      BuiltInLanguages.getLanguages().stream()
          .map(locale -> locale.getLanguage())
          .collect(Collectors.toUnmodifiableSet());

  private static final Logger LOG = LoggerFactory.getLogger(LanguageDetection.class);

  /** The tables' resource, beside this class. */
  static final String TABLES = "language-tables.bin";

  /** The first int of the tables' resource: its format. */
  private static final int TABLES_FORMAT = 0x4c44_0001;

  private static final class Shared {
    static final LanguageDetection INSTANCE = load();
  }

  private final String[] languages;

  /** Per character, Optimaize's {@code CharNormalizer.normalize} of it. */
  private final char[] normalized;

  /**
   * Per character, its script group: the ordinal of its {@link Character.UnicodeScript}, Han's for
   * kana and bopomofo (Japanese and Chinese write them with Han), else {@link #NONE} or {@link
   * #MARK}.
   */
  private final byte[] groups;

  /**
   * Per script group, the languages written in it: those whose profile has most of its letters (its
   * one-character n-grams' frequencies) in the group.
   */
  private final int[][] writtenIn;

  /**
   * Open addressing, two longs a slot: the packed n-gram (0 for a free slot), then its entries'
   * first index and one past the last, packed.
   */
  private final long[] table;

  /**
   * Per n-gram, a run of entries, one per language that has it: the language's index in the top
   * eight bits, the n-gram's weight {@code log(1 + frequency / smoothing)} in the others, in units
   * of 1 / {@value #WEIGHT_UNITS} (sums of integers: the score of a text is the same whatever the
   * order of its n-grams).
   */
  private final int[] entries;

  /**
   * Each thread's scratch space, reused text after text: some 50 KB that a parser would otherwise
   * allocate for every page.
   */
  private final ThreadLocal<Tally> tallies;

  private LanguageDetection(
      String[] languages,
      char[] normalized,
      byte[] groups,
      int[][] writtenIn,
      long[] table,
      int[] entries) {
    this.languages = languages;
    this.normalized = normalized;
    this.groups = groups;
    this.writtenIn = writtenIn;
    this.table = table;
    this.entries = entries;
    this.tallies = ThreadLocal.withInitial(() -> new Tally(languages.length));
  }

  /**
   * The detector of the tables the build wrote ({@value #TABLES}, by {@link LanguageTablesWriter}),
   * read in about 0.1 s of CPU; built from the profiles when they are not there (a build that
   * stopped short of {@code process-classes}) or unreadable.
   */
  static LanguageDetection load() {
    try (InputStream in = LanguageDetection.class.getResourceAsStream(TABLES)) {
      return load(in);
    } catch (IOException e) {
      return load(null);
    }
  }

  /**
   * The detector of these tables, or of the profiles when there are none or they are unreadable.
   */
  static LanguageDetection load(@Nullable InputStream tables) {
    if (tables == null) {
      LOG.info("no language tables in the build: built from the profiles (0.6 s of CPU)");
      return fromProfiles();
    }
    try {
      return read(tables.readAllBytes());
    } catch (IOException | RuntimeException e) {
      LOG.warn("the language tables of the build are unreadable ({}): built again", e.toString());
      return fromProfiles();
    }
  }

  /** The detector built from Optimaize's profiles (0.6 s of CPU and some 60 MB of heap). */
  static LanguageDetection fromProfiles() {
    List<LanguageProfile> profiles;
    try {
      profiles = new LanguageProfileReader().readAllBuiltIn();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the language profiles", e);
    }
    char[] normalized = new char[Character.MAX_VALUE + 1];
    byte[] groups = new byte[Character.MAX_VALUE + 1];
    for (int c = 0; c <= Character.MAX_VALUE; c++) {
      normalized[c] = CharNormalizer.normalize((char) c);
      groups[c] = (byte) groupOf(Character.UnicodeScript.of(c));
    }
    String[] languages = new String[profiles.size()];
    int[] writtenInGroup = new int[profiles.size()];
    for (int language = 0; language < profiles.size(); language++) {
      languages[language] = profiles.get(language).getLocale().toString();
      writtenInGroup[language] = mainGroup(profiles.get(language), groups);
    }
    int[][] writtenIn = new int[256][];
    for (int group = 0; group < 256; group++) {
      int of = group;
      writtenIn[group] =
          IntStream.range(0, languages.length).filter(l -> writtenInGroup[l] == of).toArray();
    }
    Map<Long, List<Integer>> grams = new HashMap<>();
    int count = 0;
    for (int language = 0; language < profiles.size(); language++) {
      LanguageProfile profile = profiles.get(language);
      for (int length = 1; length <= 3; length++) {
        double occurrences = profile.getNumGramOccurrences(length);
        for (Map.Entry<String, Integer> gram : profile.iterateGrams(length)) {
          if (!isWrittenIn(gram.getKey(), writtenInGroup[language], groups)) {
            continue; // a part in the n-gram's script is never this language
          }
          int weight = weight(gram.getValue() / occurrences);
          grams
              .computeIfAbsent(key(gram.getKey()), k -> new ArrayList<>(4))
              .add(language << 24 | weight);
          count++;
        }
      }
    }
    int slots = Integer.highestOneBit(grams.size() * 2 - 1) << 1;
    long[] table = new long[2 * slots];
    int[] entries = new int[count];
    int entry = 0;
    for (Map.Entry<Long, List<Integer>> gram : grams.entrySet()) {
      int slot = freeSlotOf(table, gram.getKey());
      table[2 * slot] = gram.getKey();
      long first = entry;
      for (int packed : gram.getValue()) {
        entries[entry++] = packed;
      }
      table[2 * slot + 1] = first << 32 | entry;
    }
    return new LanguageDetection(languages, normalized, groups, writtenIn, table, entries);
  }

  /** Writes the detector's tables, as {@link #read} reads them. */
  void write(OutputStream out) throws IOException {
    DataOutputStream data = new DataOutputStream(new BufferedOutputStream(out));
    data.writeInt(TABLES_FORMAT);
    data.writeInt(languages.length);
    for (String language : languages) {
      data.writeUTF(language);
    }
    for (char c : normalized) {
      data.writeChar(c);
    }
    data.write(groups);
    for (int[] languagesOfGroup : writtenIn) {
      data.writeInt(languagesOfGroup.length);
      for (int language : languagesOfGroup) {
        data.writeInt(language);
      }
    }
    data.writeInt(table.length);
    for (long slot : table) {
      data.writeLong(slot);
    }
    data.writeInt(entries.length);
    for (int entry : entries) {
      data.writeInt(entry);
    }
    data.flush();
  }

  /** The detector of the tables {@link #write} wrote. */
  static LanguageDetection read(byte[] bytes) {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    if (in.getInt() != TABLES_FORMAT) {
      throw new IllegalArgumentException("not language tables of this format");
    }
    String[] languages = new String[count(in, 3)];
    for (int i = 0; i < languages.length; i++) {
      byte[] utf = new byte[in.getShort() & 0xFFFF];
      in.get(utf);
      languages[i] = new String(utf, StandardCharsets.UTF_8); // language tags: ASCII
    }
    char[] normalized = new char[Character.MAX_VALUE + 1];
    in.asCharBuffer().get(normalized);
    in.position(in.position() + 2 * normalized.length);
    byte[] groups = new byte[Character.MAX_VALUE + 1];
    in.get(groups);
    int[][] writtenIn = new int[256][];
    for (int group = 0; group < writtenIn.length; group++) {
      writtenIn[group] = new int[count(in, 4)];
      in.asIntBuffer().get(writtenIn[group]);
      in.position(in.position() + 4 * writtenIn[group].length);
    }
    long[] table = new long[count(in, 8)];
    in.asLongBuffer().get(table);
    in.position(in.position() + 8 * table.length);
    int[] entries = new int[count(in, 4)];
    in.asIntBuffer().get(entries);
    in.position(in.position() + 4 * entries.length);
    if (in.hasRemaining()) {
      throw new IllegalArgumentException(in.remaining() + " bytes after the tables");
    }
    return new LanguageDetection(languages, normalized, groups, writtenIn, table, entries);
  }

  /** The count the tables give next, when that many elements of this size can follow it. */
  private static int count(ByteBuffer in, int elementBytes) {
    int count = in.getInt();
    if (count < 0 || count > in.remaining() / elementBytes) {
      throw new IllegalArgumentException("a count of " + count + " where the tables end sooner");
    }
    return count;
  }

  /** The script group most of the profile's letters are in (by its one-character n-grams). */
  private static int mainGroup(LanguageProfile profile, byte[] groups) {
    double[] mass = new double[NONE];
    for (Map.Entry<String, Integer> gram : profile.iterateGrams(1)) {
      int group = groups[gram.getKey().charAt(0)] & 0xFF;
      if (group < NONE) {
        mass[group] += gram.getValue();
      }
    }
    int main = 0;
    for (int group = 0; group < NONE; group++) {
      main = mass[group] > mass[main] ? group : main;
    }
    return main;
  }

  /** The script group the language is written in. */
  int scriptGroupOf(int language) {
    for (int group = 0; group < writtenIn.length; group++) {
      for (int written : writtenIn[group]) {
        if (written == language) {
          return group;
        }
      }
    }
    throw new IllegalArgumentException("no language " + language);
  }

  /**
   * Whether an n-gram can occur in a part in this script group: its letters are in it, or it has
   * none (spaces, marks, punctuation a normalization keeps).
   */
  boolean isWrittenIn(String gram, int group) {
    return isWrittenIn(gram, group, groups);
  }

  private static boolean isWrittenIn(String gram, int group, byte[] groups) {
    for (int i = 0; i < gram.length(); i++) {
      int found = groups[gram.charAt(i)] & 0xFF;
      if (found != group && found != NONE && found != MARK) {
        return false;
      }
    }
    return true;
  }

  /** The detector of this JVM, its tables read on the first call. */
  public static LanguageDetection shared() {
    return Shared.INSTANCE;
  }

  /** The language of the text, as a BCP 47 tag ({@code en}, {@code zh-CN}), when certain enough. */
  public Optional<String> detect(String text) {
    List<Sample> samples = new ArrayList<>(SAMPLES);
    int length = text.length();
    if (length <= SAMPLES * SAMPLE_CHARS) {
      // read whole: consecutive samples, each edge between two words
      int count = Math.max(1, (length + SAMPLE_CHARS - 1) / SAMPLE_CHARS);
      int start = 0;
      for (int i = 1; i <= count; i++) {
        int end = i == count ? length : betweenWords(text, (int) ((long) length * i / count));
        if (end > start) {
          samples.add(new Sample(text, start, end));
        }
        start = Math.max(start, end);
      }
    } else {
      for (int i = 0; i < SAMPLES; i++) {
        int centre = (int) ((long) length * (2 * i + 1) / (2 * SAMPLES));
        int start = betweenWords(text, centre - SAMPLE_CHARS / 2);
        int end = betweenWords(text, Math.min(length, start + SAMPLE_CHARS));
        samples.add(new Sample(text, start, end));
      }
    }
    return detect(samples);
  }

  /**
   * The language of a text given in UTF-8 ({@link #detect(String)}), decoding only the samples
   * read: a text of more than {@code SAMPLES × SAMPLE_CHARS} bytes is read in samples centred on
   * the middles of equal parts of its bytes.
   */
  public Optional<String> detectUtf8(byte[] utf8Text) {
    int length = utf8Text.length;
    if (length <= SAMPLES * SAMPLE_CHARS) {
      return detect(new String(utf8Text, StandardCharsets.UTF_8));
    }
    List<Sample> samples = new ArrayList<>(SAMPLES);
    for (int i = 0; i < SAMPLES; i++) {
      int centre = (int) ((long) length * (2 * i + 1) / (2 * SAMPLES));
      int start = Math.max(0, centre - SAMPLE_CHARS / 2);
      // a sample's bytes hold SAMPLE_CHARS characters in any script (three bytes each at most)
      int end = Math.min(length, start + 3 * (SAMPLE_CHARS + WORD_SLACK));
      // a sample starts and ends between characters: not on a continuation byte (10xxxxxx)
      while (start < end && (utf8Text[start] & 0xC0) == 0x80) {
        start++;
      }
      while (end < length && (utf8Text[end] & 0xC0) == 0x80) {
        end++;
      }
      String window = new String(utf8Text, start, end - start, StandardCharsets.UTF_8);
      int from = start == 0 ? 0 : betweenWords(window, 0);
      samples.add(
          new Sample(
              window, from, betweenWords(window, Math.min(window.length(), from + SAMPLE_CHARS))));
    }
    return detect(samples);
  }

  /** A sample of a text: its characters {@code start} to {@code end}. */
  private record Sample(String text, int start, int end) {}

  /** A script's letters in a sample: they vote together, with {@code weight} letters. */
  private record Part(Sample sample, int group, int weight, boolean alone) {}

  /**
   * The language most of the samples' letters vote for. Every part is weighed before any is scored,
   * so the scoring stops as soon as the answer is settled whatever the parts left would vote: the
   * answer is the one all parts would give.
   */
  private Optional<String> detect(List<Sample> samples) {
    Tally tally = tallies.get().cleared();
    List<Part> parts = new ArrayList<>(samples.size());
    for (Sample sample : samples) {
      partsOf(sample, parts, tally);
    }
    double left = 0;
    for (Part part : parts) {
      left += part.weight();
    }
    for (Part part : parts) {
      if (tally.isSettled(left)) {
        break;
      }
      left -= part.weight();
      int[] candidates = writtenIn[part.group()];
      if (candidates.length == 1) {
        tally.votes[candidates[0]] += part.weight(); // hangul is Korean, Greek letters Greek
      } else {
        Sample sample = part.sample();
        char[] prepared =
            prepared(sample.text(), sample.start(), sample.end(), part.alone() ? -1 : part.group());
        scorePart(prepared, candidates, part.weight(), tally);
      }
    }
    return tally.answer().map(language -> languages[language]);
  }

  /**
   * Adds the sample's parts to the list, and their letters to the tally's total: each script group
   * with at least {@value #MIN_LETTERS} letters in the sample that some language is written in.
   */
  private void partsOf(Sample sample, List<Part> parts, Tally tally) {
    int[] letters = tally.letters;
    Arrays.fill(letters, 0);
    int scriptsSeen = 0;
    int last = -1;
    String text = sample.text();
    for (int i = sample.start(); i < sample.end(); i++) {
      int script = groups[text.charAt(i)] & 0xFF;
      if (script == NONE) {
        continue;
      }
      if (script == MARK) {
        if (last < 0) {
          continue;
        }
        script = last; // a mark counts with the letter it is on
      }
      last = script;
      if (letters[script]++ == 0) {
        scriptsSeen++;
      }
    }
    for (int script = 0; script < NONE; script++) {
      if (letters[script] < MIN_LETTERS || writtenIn[script].length == 0) {
        continue; // a few words, or a script none of the languages is written in
      }
      int weight = letters[script] * (isWide(script) ? WIDE_LETTER : 1);
      tally.total += weight;
      parts.add(new Part(sample, script, weight, scriptsSeen == 1));
    }
  }

  /**
   * The language published for a document: the detected one, but the declared one stands when the
   * detector has no answer, and also against an answer when the declaration is one the detector
   * cannot check — a language it does not know (it would name a neighbour), or a sibling it tells
   * apart badly (Norwegian and Danish, Serbian and Croatian…). When the detector names the declared
   * language, its tag ({@code en}, {@code zh-CN}) is published; the declaration is kept as declared
   * beside it. A declaration that is no language tag ({@code english}) gives way to the detected
   * language. A confident answer against a checkable declaration wins: most of the text is in
   * another language than declared, as on pages whose template declares one language for every
   * page.
   */
  public static Optional<String> combine(Optional<String> declared, Optional<String> detected) {
    if (detected.isEmpty()) {
      return declared;
    }
    Optional<String> primary = declared.flatMap(LanguageDetection::primarySubtag);
    if (primary.isEmpty()) {
      return detected;
    }
    String claimed = primary.get();
    String found = primarySubtag(detected.get()).orElse("");
    if (claimed.equals(found)) {
      return detected;
    }
    if (!KNOWN.contains(claimed) || SIBLINGS.contains(Set.of(claimed, found))) {
      return declared;
    }
    return detected;
  }

  /**
   * The primary language subtag of a tag, lower-cased and with the detector's code for it ({@code
   * nb} is {@code no}); the first of a list ({@code Content-Language: de, en}); empty when it is
   * not two or three letters.
   */
  static Optional<String> primarySubtag(String tag) {
    String first = tag.strip();
    int end = 0;
    while (end < first.length() && isAsciiLetter(first.charAt(end))) {
      end++;
    }
    boolean endsThere =
        end == first.length() || "-_,; ".indexOf(first.charAt(end)) >= 0; // en-GB, en_US, de, en
    if (end < 2 || end > 3 || !endsThere) {
      return Optional.empty();
    }
    String code = first.substring(0, end).toLowerCase(Locale.ROOT);
    return Optional.of(ALIASES.getOrDefault(code, code));
  }

  private static boolean isAsciiLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  /** The first index at or after {@code at} that follows a space, within the slack; else at. */
  private static int betweenWords(String text, int at) {
    int limit = Math.min(text.length(), at + WORD_SLACK);
    for (int i = Math.max(0, at); i < limit; i++) {
      if (i == 0 || text.charAt(i - 1) == ' ') {
        return i;
      }
    }
    return Math.min(Math.max(0, at), text.length());
  }

  private static int groupOf(Character.UnicodeScript script) {
    return switch (script) {
      case COMMON, UNKNOWN -> NONE;
      case INHERITED -> MARK;
      case HIRAGANA, KATAKANA, BOPOMOFO -> Character.UnicodeScript.HAN.ordinal();
      default -> script.ordinal();
    };
  }

  private static boolean isWide(int group) {
    return group == Character.UnicodeScript.HAN.ordinal()
        || group == Character.UnicodeScript.HANGUL.ordinal();
  }

  /**
   * Per language, the letters of the parts that voted for it, and all counted parts' letters; and
   * the scratch space of one text's scoring.
   */
  private static final class Tally {
    final double[] votes;
    double total;
    final int[] letters = new int[256];
    final int[] score;
    final Grams grams = new Grams();

    Tally(int languages) {
      votes = new double[languages];
      score = new int[languages];
    }

    /**
     * This tally with no votes and an empty scratch table (a scoring cut short by an exception
     * would have left n-grams in it).
     */
    Tally cleared() {
      Arrays.fill(votes, 0);
      total = 0;
      Arrays.fill(grams.keys, 0);
      return this;
    }

    /**
     * Whether the answer can no longer change, whatever parts of {@code left} letters vote: a
     * language has its share already, or none can reach it.
     */
    boolean isSettled(double left) {
      double most = 0;
      for (double vote : votes) {
        most = Math.max(most, vote);
      }
      return most >= MIN_SHARE * total || most + left < MIN_SHARE * total;
    }

    Optional<Integer> answer() {
      int best = 0;
      for (int i = 1; i < votes.length; i++) {
        if (votes[i] > votes[best]) {
          best = i;
        }
      }
      if (total == 0 || votes[best] == 0 || votes[best] < MIN_SHARE * total) {
        return Optional.empty();
      }
      return Optional.of(best);
    }
  }

  /**
   * Fills the tally's scores with the sample's: per language, the sum of its weights of the
   * sample's n-grams (integers: the same sum in any order); returns how many n-grams some language
   * has.
   */
  private int scoreGrams(char[] sample, Tally tally) {
    // the loops keep their state in locals: C1, the crawler's compiler, reloads fields each time
    Grams grams = tally.grams;
    long[] gramKeys = grams.keys;
    int[] gramCounts = grams.counts;
    int[] used = grams.used;
    long[] runs = grams.runs;
    int[] times = grams.times;
    int size = collectGrams(sample, grams);
    long[] table = this.table;
    int[] entries = this.entries;
    // Two passes: first every n-gram's slot, then every run of weights. In a crawl the tables are
    // out of the processor's caches when a page comes; a lookup whose run is added before the next
    // is looked up waits for memory twice per n-gram, one after the other, while lookups that do
    // not depend on each other wait together.
    int found = 0;
    int weighed = 0;
    for (int i = 0; i < size; i++) {
      int gram = used[i];
      long key = gramKeys[gram];
      gramKeys[gram] = 0; // the scratch table is empty again for the next part
      int slot = slotOf(key, table);
      if (slot < 0) {
        continue; // an n-gram no language has says nothing
      }
      int count = gramCounts[gram];
      weighed += count;
      times[found] = count;
      runs[found++] = table[2 * slot + 1];
    }
    int[] score = tally.score;
    Arrays.fill(score, 0);
    for (int i = 0; i < found; i++) {
      long run = runs[i];
      int count = times[i];
      int stop = (int) run;
      if (count == 1) {
        for (int entry = (int) (run >>> 32); entry < stop; entry++) {
          int packed = entries[entry];
          score[packed >>> 24] += packed & 0xFFFFFF;
        }
      } else {
        for (int entry = (int) (run >>> 32); entry < stop; entry++) {
          int packed = entries[entry];
          score[packed >>> 24] += count * (packed & 0xFFFFFF);
        }
      }
    }
    return weighed;
  }

  /** Scores one script's part of a sample and adds its vote, of {@code weight} letters. */
  private void scorePart(char[] sample, int[] candidates, int weight, Tally tally) {
    int weighed = scoreGrams(sample, tally);
    int[] score = tally.score;
    if (weighed == 0) {
      return; // no n-gram any language has: the part abstains
    }
    int best = candidates[0];
    for (int candidate : candidates) {
      if (score[candidate] > score[best]) {
        best = candidate;
      }
    }
    double sum = 0;
    for (int candidate : candidates) {
      double behind = (double) (score[best] - score[candidate]) / WEIGHT_UNITS;
      if (behind < NEGLIGIBLE) {
        sum += Math.exp(-behind);
      }
    }
    if (1 / sum >= MIN_PROBABILITY) {
      tally.votes[best] += weight;
    }
  }

  /**
   * The sample as Optimaize prepares a text for its n-grams: each character normalized by {@code
   * CharNormalizer}, runs of spaces collapsed, a space before and after (not twice); when {@code
   * only} is a script group, the letters of other scripts (and the marks on them) are spaces first.
   */
  char[] prepared(String text, int start, int end, int only) {
    char[] sample = new char[end - start + 2];
    int length = 0;
    sample[length++] = ' ';
    char previous = ' ';
    boolean keptLast = true;
    for (int i = start; i < end; i++) {
      char c = text.charAt(i);
      if (only >= 0) {
        int script = groups[c] & 0xFF;
        if (script == MARK ? !keptLast : script != NONE && script != only) {
          keptLast = false;
          c = ' ';
        } else if (script != MARK) {
          keptLast = true;
        }
      }
      char normal = normalized[c];
      if (normal != ' ' || previous != ' ') {
        sample[length++] = normal;
      }
      previous = normal;
    }
    if (sample[length - 1] != ' ') {
      sample[length++] = ' ';
    }
    return length == sample.length ? sample : Arrays.copyOf(sample, length);
  }

  /**
   * Collects the sample's n-grams, as Optimaize extracts them: 1 to 3 characters, but a lone space
   * and a trigram with a space in its middle; returns how many distinct ones the scratch table
   * holds (their slots in {@code grams.used}).
   */
  static int collectGrams(char[] sample, Grams grams) {
    long[] gramKeys = grams.keys;
    int[] gramCounts = grams.counts;
    int[] used = grams.used;
    int size = 0;
    int mask = gramKeys.length - 1;
    int length = sample.length;
    for (int at = 0; at < length; at++) {
      long first = sample[at];
      long second = at + 1 < length ? sample[at + 1] : -1;
      long third = at + 2 < length ? sample[at + 2] : -1;
      for (int n = 1; n <= 3; n++) {
        long key;
        if (n == 1) {
          if (first == ' ') {
            continue;
          }
          key = 1L << 48 | first << 32;
        } else if (n == 2) {
          if (second < 0) {
            break;
          }
          key = 2L << 48 | first << 32 | second << 16;
        } else {
          if (third < 0 || second == ' ') {
            break;
          }
          key = 3L << 48 | first << 32 | second << 16 | third;
        }
        for (int slot = hash(key) & mask; ; slot = (slot + 1) & mask) {
          long found = gramKeys[slot];
          if (found == key) {
            gramCounts[slot]++;
            break;
          }
          if (found == 0) {
            gramKeys[slot] = key;
            gramCounts[slot] = 1;
            used[size++] = slot;
            break;
          }
        }
      }
    }
    return size;
  }

  /**
   * A sample's distinct n-grams and how often each occurs: open addressing over packed keys, a key
   * set back to 0 once scored.
   */
  static final class Grams {
    /** Slots for the n-grams of a sample: three per character at most, a table half full. */
    static final int SLOTS = Integer.highestOneBit(6 * (SAMPLE_CHARS + WORD_SLACK + 2)) << 1;

    final long[] keys = new long[SLOTS];
    final int[] counts = new int[SLOTS];
    final int[] used = new int[SLOTS];

    /** While a part is scored: the runs of weights of its n-grams some language has, in order. */
    final long[] runs = new long[SLOTS];

    /** How often the n-gram of the run at the same index occurs in the part. */
    final int[] times = new int[SLOTS];
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

  /**
   * The weight of an n-gram of this frequency in a language, in units of 1 / {@value
   * #WEIGHT_UNITS}: {@code log(1 + frequency / smoothing)}, the factor it multiplies the language's
   * likelihood by over a language that does not have it.
   */
  static int weight(double frequency) {
    return (int) Math.round(Math.log1p(frequency / (ALPHA / 10_000)) * WEIGHT_UNITS);
  }

  /**
   * Per language, the n-gram's {@link #weight} (0 where the language does not have it), or null
   * when no language has it.
   */
  int[] weightsOf(long key) {
    int slot = slotOf(key, table);
    if (slot < 0) {
      return null;
    }
    int[] weights = new int[languages.length];
    long run = table[2 * slot + 1];
    for (int entry = (int) (run >>> 32), stop = (int) run; entry < stop; entry++) {
      weights[entries[entry] >>> 24] = entries[entry] & 0xFFFFFF;
    }
    return weights;
  }

  /** The slot of the n-gram in the table, or -1 when no language has it. */
  private static int slotOf(long key, long[] table) {
    int mask = table.length / 2 - 1;
    for (int slot = hash(key) & mask; ; slot = (slot + 1) & mask) {
      long found = table[2 * slot];
      if (found == key) {
        return slot;
      }
      if (found == 0) {
        return -1;
      }
    }
  }

  /** A free slot for the n-gram, while the table is built. */
  private static int freeSlotOf(long[] table, long key) {
    int mask = table.length / 2 - 1;
    int slot = hash(key) & mask;
    while (table[2 * slot] != 0) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  private static int hash(long key) {
    long mixed = key * 0x9E3779B97F4A7C15L;
    return (int) (mixed ^ (mixed >>> 32));
  }

  /**
   * Per language, the text's score read as one sample, all its characters kept: the sum of the
   * weights of its n-grams.
   */
  int[] scoresOf(String text) {
    if (text.length() > SAMPLE_CHARS + WORD_SLACK) {
      throw new IllegalArgumentException("longer than a sample: " + text.length());
    }
    Tally tally = new Tally(languages.length);
    scoreGrams(prepared(text, 0, text.length(), -1), tally);
    return tally.score.clone();
  }

  /** The languages, in the order of their indexes in the weights. */
  List<String> languages() {
    return List.of(languages);
  }
}
