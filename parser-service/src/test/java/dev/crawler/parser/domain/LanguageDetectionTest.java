package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.optimaize.langdetect.NgramFrequencyData;
import com.optimaize.langdetect.i18n.LdLocale;
import com.optimaize.langdetect.ngram.NgramExtractors;
import com.optimaize.langdetect.profiles.LanguageProfile;
import com.optimaize.langdetect.profiles.LanguageProfileReader;
import com.optimaize.langdetect.text.CommonTextObjectFactories;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LanguageDetectionTest {

  private static final LanguageDetection DETECTION = LanguageDetection.shared();

  /** Every language of the fixtures, with how many of its paragraphs and how many are told. */
  private static final String[] FIXTURES = {
    "cs", "da", "de", "el", "en", "es", "fi", "fr", "hu", "id", "it", "ja", "ko", "mk", "nl", "no",
    "pl", "pt", "ro", "ru", "sr", "sv", "tr", "uk", "vi", "zh-CN", "zh-TW"
  };

  /** The paragraphs of a fixture ({@code src/test/resources/language/README.md}). */
  static List<String> paragraphs(String language) {
    try (InputStream in =
        LanguageDetectionTest.class.getResourceAsStream("/language/" + language + ".txt")) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return text.lines().filter(line -> !line.startsWith("#") && !line.isBlank()).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Real translated documentation, paragraph by paragraph: at least {@code least} of each
   * language's paragraphs are told right, and none is taken for a language outside {@code
   * alsoTaken} (the close siblings, or English for man pages whose option lists stayed English).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "cs|12|12|",
        "da|12|12|",
        "de|12|12|",
        "el|5|5|",
        "en|12|12|",
        "es|12|12|",
        "fi|12|12|",
        "fr|12|12|",
        "hu|12|11|en",
        "id|12|12|",
        "it|12|12|",
        "ja|12|12|",
        "ko|12|12|",
        "mk|12|5|en", // short pages, half their text the English licence and options
        "nl|12|11|",
        "no|12|9|en da",
        "pl|12|12|",
        "pt|12|11|",
        "ro|12|12|",
        "ru|12|11|",
        "sr|12|11|en",
        "sv|12|11|en",
        "tr|12|12|",
        "uk|12|12|",
        "vi|12|12|",
        "zh-CN|12|12|",
        "zh-TW|12|12|",
      })
  void detectsTheLanguageOfRealParagraphs(
      String language, int paragraphs, int least, String alsoTaken) {
    List<String> texts = paragraphs(language);
    List<String> allowed = alsoTaken == null ? List.of() : List.of(alsoTaken.split(" "));
    int right = 0;
    int rightInUtf8 = 0;
    List<String> wrong = new ArrayList<>();
    for (String text : texts) {
      // a text of more bytes than a detector reads whole is sampled by its bytes in UTF-8
      for (Optional<String> detected :
          List.of(
              DETECTION.detect(text),
              DETECTION.detectUtf8(text.getBytes(StandardCharsets.UTF_8)))) {
        if (detected.isPresent() && !detected.get().equals(language)) {
          if (!allowed.contains(detected.get())) {
            wrong.add(detected.get() + ": " + text);
          }
        }
      }
      right += DETECTION.detect(text).equals(Optional.of(language)) ? 1 : 0;
      rightInUtf8 +=
          DETECTION.detectUtf8(text.getBytes(StandardCharsets.UTF_8)).equals(Optional.of(language))
              ? 1
              : 0;
    }

    assertThat(texts).hasSize(paragraphs);
    assertThat(wrong).isEmpty();
    assertThat(right).isGreaterThanOrEqualTo(least);
    assertThat(rightInUtf8).isGreaterThanOrEqualTo(least);
  }

  @Test
  void coversTwentyLanguagesAndMoreWithCjkAmongThem() {
    assertThat(FIXTURES).hasSizeGreaterThanOrEqualTo(20).contains("ja", "ko", "zh-CN", "zh-TW");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "en|The committee met on Tuesday to discuss the budget for the coming year, and agreed that the library would stay open on weekends.",
        "de|Der Ausschuss traf sich am Dienstag, um den Haushalt für das kommende Jahr zu besprechen, und beschloss, die Bibliothek am Wochenende zu öffnen.",
        "fr|Le comité s'est réuni mardi pour discuter du budget de l'année prochaine et a décidé que la bibliothèque resterait ouverte le week-end.",
        "es|El comité se reunió el martes para discutir el presupuesto del próximo año y acordó que la biblioteca abriría los fines de semana.",
        "nl|De commissie kwam dinsdag bijeen om de begroting voor het komende jaar te bespreken en besloot dat de bibliotheek in het weekend open blijft.",
        "ja|委員会は火曜日に会合を開き、来年度の予算について話し合い、図書館を週末も開館することで合意しました。",
        "ru|Комитет собрался во вторник, чтобы обсудить бюджет на следующий год, и решил, что библиотека будет открыта по выходным.",
      })
  void detectsTheLanguageOfASentence(String language, String text) {
    assertThat(DETECTION.detect(text)).contains(language);
  }

  @ParameterizedTest(name = "\"{0}\"")
  @CsvSource({"Bonjour le monde", "'12 345 678 -- 9'", "''", "https://example.org/a/b/c"})
  void saysNothingOfTooFewLetters(String text) {
    assertThat(DETECTION.detect(text)).isEmpty();
  }

  /** Four paragraphs in one language and one in another, in the middle: the four win. */
  @ParameterizedTest(name = "{0} with {1} in the middle")
  @CsvSource({"en, de", "de, en", "fr, ru", "ru, fr"})
  void namesTheLanguageMostOfTheTextIsIn(String most, String middle) {
    List<String> mostly = paragraphs(most);
    String text =
        String.join(
            " ",
            mostly.get(0),
            mostly.get(1),
            paragraphs(middle).get(0),
            mostly.get(2),
            mostly.get(3));
    String longText = (text + " ").repeat(20);

    assertThat(DETECTION.detect(text)).contains(most);
    assertThat(DETECTION.detectUtf8(text.getBytes(StandardCharsets.UTF_8))).contains(most);
    assertThat(DETECTION.detect(longText)).contains(most);
    assertThat(DETECTION.detectUtf8(longText.getBytes(StandardCharsets.UTF_8))).contains(most);
  }

  @Test
  void theTablesTheBuildWroteAreTheOnesTheProfilesMake() throws IOException {
    ByteArrayOutputStream built = new ByteArrayOutputStream();
    LanguageDetection.fromProfiles().write(built);
    byte[] written;
    try (InputStream in = LanguageDetection.class.getResourceAsStream(LanguageDetection.TABLES)) {
      assertThat(in).as("the build's tables (mvn process-classes writes them)").isNotNull();
      written = in.readAllBytes();
    }

    assertThat(written).isEqualTo(built.toByteArray());
    ByteArrayOutputStream again = new ByteArrayOutputStream();
    LanguageDetection.read(written).write(again);
    assertThat(again.toByteArray()).isEqualTo(written);
  }

  @Test
  void withoutTablesOrWithUnreadableOnesTheDetectorIsBuiltFromTheProfiles() {
    String french = "Ceci est un texte en français, écrit pour voir ce que le détecteur en pense.";

    assertThat(LanguageDetection.load(null).detect(french)).contains("fr");
    byte[] corrupt = {0x4c, 0x44, 0, 1, 0x7f, 0, 0, 0};
    assertThat(LanguageDetection.load(new ByteArrayInputStream(corrupt)).detect(french))
        .contains("fr");
  }

  @Test
  void tablesOfAnotherFormatOrCutShortAreRefused() {
    byte[] written = new byte[16];
    assertThatThrownBy(() -> LanguageDetection.read(written))
        .isInstanceOf(IllegalArgumentException.class);
    byte[] huge = {0x4c, 0x44, 0, 1, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff};
    assertThatThrownBy(() -> LanguageDetection.read(huge))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("count");
    ByteArrayOutputStream built = new ByteArrayOutputStream();
    try {
      LanguageDetection.shared().write(built);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    byte[] cut = Arrays.copyOf(built.toByteArray(), built.size() - 1);
    assertThatThrownBy(() -> LanguageDetection.read(cut)).isInstanceOf(RuntimeException.class);
  }

  @Test
  void readsSamplesSpreadOverALongText() {
    // a menu in English, then a long German text: samples over the whole of it say German
    String text =
        "Home About Contact Login "
            + "Der Ausschuss traf sich am Dienstag, um den Haushalt zu besprechen. ".repeat(200);

    assertThat(DETECTION.detect(text)).contains("de");
    assertThat(DETECTION.detectUtf8(text.getBytes(StandardCharsets.UTF_8))).contains("de");
  }

  @Test
  void cutsAUtf8SampleBetweenCharacters() {
    String text = "委員会は火曜日に会合を開き、来年度の予算について話し合いました。".repeat(300);

    assertThat(DETECTION.detectUtf8(text.getBytes(StandardCharsets.UTF_8))).contains("ja");
  }

  @Test
  void namesKoreanTextFullOfEnglishNamesKorean() {
    String text =
        "Listen 지시어는 서버가 특정 포트나 주소와 포트 조합에서만 요청을 받게 한다. Listen 지시어에"
            + " 포트 번호만 지정하면, 서버는 모든 인터페이스의 지정한 포트에서 기다린다. <VirtualHost>"
            + " 섹션과 NameVirtualHost, ServerName, DocumentRoot, ServerAlias 지시어를 참고하라.";

    assertThat(DETECTION.detect(text)).contains("ko");
  }

  /**
   * The same words in another order score the same, to the unit: every language is scored on every
   * n-gram (none dropped midway) and the sums are integers.
   */
  @Test
  void scoresTheSameWordsInAnyOrderTheSame() {
    int compared = 0;
    for (String language : FIXTURES) {
      for (String paragraph : paragraphs(language)) {
        String sample = paragraph.substring(0, paragraph.lastIndexOf(' ', 150) + 1).strip();
        if (sample.indexOf(' ') < 0) {
          continue; // CJK without spaces: no words to reorder
        }
        List<String> words = new ArrayList<>(List.of(sample.split(" ")));
        Collections.reverse(words);
        String reversed = String.join(" ", words);
        Collections.rotate(words, words.size() / 3);
        String rotated = String.join(" ", words);

        int[] scores = DETECTION.scoresOf(sample);
        assertThat(DETECTION.scoresOf(reversed)).as(sample).isEqualTo(scores);
        assertThat(DETECTION.scoresOf(rotated)).as(sample).isEqualTo(scores);
        assertThat(DETECTION.detect(reversed)).as(sample).isEqualTo(DETECTION.detect(sample));
        compared++;
      }
    }
    assertThat(compared).isGreaterThan(250);
  }

  /** Optimaize's TextObject: every character through its CharNormalizer, spaces collapsed. */
  @Test
  void normalizesExactlyAsOptimaize() {
    int compared = 0;
    for (String language : FIXTURES) {
      for (String paragraph : paragraphs(language)) {
        String optimaize =
            CommonTextObjectFactories.forDetectingShortCleanText().forText(paragraph).toString();
        String padded =
            (optimaize.startsWith(" ") ? "" : " ")
                + optimaize
                + (optimaize.endsWith(" ") ? "" : " ");

        assertThat(new String(DETECTION.prepared(paragraph, 0, paragraph.length(), -1)))
            .isEqualTo(padded);
        compared++;
      }
    }
    assertThat(compared).isGreaterThan(300);
    // pure Japanese and Korean text scores: their letters are the profiles' representatives
    assertThat(new String(DETECTION.prepared("ひらがな한국어", 0, 7, -1))).isEqualTo(" ああああ가가가 ");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "The committee met on Tuesday.",
        "' leading and trailing spaces '",
        "x",
        "委員会は火曜日に会合を開き",
        "a  b   c",
        "Ceci n'est pas une pipe, c'est une pipe.",
      })
  void extractsExactlyOptimaizesNgrams(String text) {
    String normalized =
        CommonTextObjectFactories.forDetectingShortCleanText().forText(text).toString();
    Map<Long, Integer> expected = new HashMap<>();
    for (String gram : NgramExtractors.standard().extractGrams(normalized)) {
      expected.merge(LanguageDetection.key(gram), 1, Integer::sum);
    }
    LanguageDetection.Grams grams = new LanguageDetection.Grams();
    int size =
        LanguageDetection.collectGrams(DETECTION.prepared(text, 0, text.length(), -1), grams);
    Map<Long, Integer> actual = new HashMap<>();
    for (int i = 0; i < size; i++) {
      actual.put(grams.keys[grams.used[i]], grams.counts[grams.used[i]]);
    }

    assertThat(actual).isEqualTo(expected);
  }

  /**
   * Each n-gram weighs {@code log(1 + frequency / smoothing)} in every language written in its
   * script, with Optimaize's frequency; languages of other scripts, never candidates for it, are
   * left out.
   */
  @Test
  void holdsOptimaizesFrequencies() throws IOException {
    List<LanguageProfile> profiles = new LanguageProfileReader().readAllBuiltIn();
    NgramFrequencyData optimaize = NgramFrequencyData.create(profiles, List.of(1, 2, 3));
    List<String> languages = optimaize.getLanguageList().stream().map(LdLocale::toString).toList();
    assertThat(DETECTION.languages()).containsExactlyElementsOf(languages);
    int compared = 0;
    int seen = 0;
    List<String> differing = new ArrayList<>();
    for (LanguageProfile profile : profiles) {
      for (int length = 1; length <= 3; length++) {
        for (Map.Entry<String, Integer> gram : profile.iterateGrams(length)) {
          if (++seen % 5 != 0) {
            continue; // one n-gram in five of each profile: the test stays quick
          }
          double[] frequencies = optimaize.getProbabilities(gram.getKey());
          int[] actual = DETECTION.weightsOf(LanguageDetection.key(gram.getKey()));
          compared++;
          for (int i = 0; i < frequencies.length; i++) {
            int expected =
                DETECTION.isWrittenIn(gram.getKey(), DETECTION.scriptGroupOf(i))
                    ? LanguageDetection.weight(frequencies[i])
                    : 0;
            int weight = actual == null ? 0 : actual[i];
            if (Math.abs(weight - expected) > 1) {
              differing.add(gram.getKey() + " " + languages.get(i));
            }
          }
        }
      }
    }
    assertThat(differing).isEmpty();
    assertThat(compared).isGreaterThan(20_000);
    assertThat(DETECTION.weightsOf(LanguageDetection.key("\u0001zz"))).isNull();
  }

  /**
   * What is published: the declared language stands when the detector has no answer, or when it
   * cannot check the declaration; a confident answer against a checkable declaration wins.
   */
  @ParameterizedTest(name = "declared {0}, detected {1}: {2}")
  @CsvSource({
    "en,       ,      en", // the detector is not confident: the declaration stands
    "de-AT,    ,      de-AT",
    "     ,    fr,    fr",
    "en-GB,    en,    en", // agreeing: the detector's tag, the declaration kept beside it
    "zh-TW,    zh-CN, zh-CN",
    "EN_us,    en,    en",
    "en,       de,    de", // a template's declaration, the text in German
    "'de, en', fr,    fr",
    "nb,       no,    no", // Norwegian Bokmål is the profile's Norwegian
    "nb,       da,    nb", // a sibling the detector tells apart badly
    "sr,       hr,    sr",
    "id,       ms,    id",
    "la,       it,    la", // a language the detector does not know
    "eo,       en,    eo",
    "english,  de,    de", // no language tag
    "x,        de,    de",
  })
  void letsTheDeclaredLanguageStandUnlessTheTextSaysOtherwise(
      String declared, String detected, String published) {
    assertThat(
            LanguageDetection.combine(Optional.ofNullable(declared), Optional.ofNullable(detected)))
        .contains(published);
    assertThat(
            new ParseResult.Language(Optional.ofNullable(declared), Optional.ofNullable(detected))
                .best())
        .contains(published);
  }

  @Test
  void letsTheDeclaredLanguageStandOnAHalfEnglishHalfGermanText() {
    List<String> english = paragraphs("en");
    List<String> german = paragraphs("de");
    String text = String.join(" ", english.get(4), german.get(4), english.get(5), german.get(5));

    Optional<String> detected = DETECTION.detectUtf8(text.getBytes(StandardCharsets.UTF_8));

    assertThat(detected).isEmpty();
    assertThat(new ParseResult.Language(Optional.of("en"), detected).best()).contains("en");
    assertThat(new ParseResult.Language(Optional.of("de-DE"), detected).best()).contains("de-DE");
  }

  @Test
  void answersTheSameForTheSameText() {
    String text = "Ceci est un texte assez court mais en français, pour voir.";

    assertThat(DETECTION.detect(text)).isEqualTo(DETECTION.detect(text));
  }
}
