package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import com.optimaize.langdetect.NgramFrequencyData;
import com.optimaize.langdetect.i18n.LdLocale;
import com.optimaize.langdetect.ngram.NgramExtractors;
import com.optimaize.langdetect.profiles.LanguageProfile;
import com.optimaize.langdetect.profiles.LanguageProfileReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LanguageDetectionTest {

  private static final LanguageDetection DETECTION = LanguageDetection.shared();

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
  void detectsTheLanguageOfAParagraph(String language, String text) {
    assertThat(DETECTION.detect(text)).contains(language);
  }

  @ParameterizedTest(name = "\"{0}\"")
  @CsvSource({"Bonjour le monde", "'12 345 678 -- 9'", "''", "https://example.org/a/b/c"})
  void saysNothingOfTooFewLetters(String text) {
    assertThat(DETECTION.detect(text)).isEmpty();
  }

  @Test
  void readsASampleFromTheMiddleOfALongText() {
    // a menu in English, then a long German text: the middle of the text says German
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
  void holdsExactlyOptimaizesFrequencies() throws IOException {
    List<LanguageProfile> profiles = new LanguageProfileReader().readAllBuiltIn();
    NgramFrequencyData optimaize = NgramFrequencyData.create(profiles, List.of(1, 2, 3));
    assertThat(DETECTION.languages())
        .containsExactlyElementsOf(
            optimaize.getLanguageList().stream().map(LdLocale::toString).toList());
    int compared = 0;
    int seen = 0;
    List<String> differing = new ArrayList<>();
    for (LanguageProfile profile : profiles) {
      for (int length = 1; length <= 3; length++) {
        for (Map.Entry<String, Integer> gram : profile.iterateGrams(length)) {
          if (++seen % 5 != 0) {
            continue; // one n-gram in five of each profile: the test stays quick
          }
          double[] expected = optimaize.getProbabilities(gram.getKey());
          float[] actual = DETECTION.frequencyOf(LanguageDetection.key(gram.getKey()));
          compared++;
          if (actual == null || actual.length != expected.length) {
            differing.add(gram.getKey());
            continue;
          }
          for (int i = 0; i < expected.length; i++) {
            if (Math.abs(actual[i] - expected[i]) > expected[i] * 1e-6 + 1e-12) {
              differing.add(gram.getKey());
              break;
            }
          }
        }
      }
    }
    assertThat(differing).isEmpty();
    assertThat(compared).isGreaterThan(20_000);
    assertThat(DETECTION.frequencyOf(LanguageDetection.key("\u0001zz"))).isNull();
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
      })
  void extractsExactlyOptimaizesNgrams(String text) {
    List<Long> expected =
        NgramExtractors.standard().extractGrams(text).stream()
            .map(LanguageDetection::key)
            .sorted()
            .toList();
    char[] padded = LanguageDetection.padded(text);
    List<Long> actual = new ArrayList<>();
    for (int at = 0; at < padded.length; at++) {
      for (int length = 1; length <= 3 && at + length <= padded.length; length++) {
        if (LanguageDetection.isCounted(padded, at, length)) {
          actual.add(LanguageDetection.key(padded, at, length));
        }
      }
    }
    actual.sort(null);

    assertThat(actual).isEqualTo(expected);
  }

  @Test
  void answersTheSameForTheSameText() {
    String text = "Ceci est un texte assez court mais en français, pour voir.";

    assertThat(DETECTION.detect(text)).isEqualTo(DETECTION.detect(text));
  }
}
