package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ContentChecksumTest {

  /** The definition: SHA-256 of the UTF-8 bytes String.getBytes gives. */
  private static String expected(String title, String text) throws Exception {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    digest.update(title.getBytes(StandardCharsets.UTF_8));
    digest.update((byte) '\n');
    digest.update(text.getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(digest.digest());
  }

  @Test
  void isTheSha256OfTheUtf8BytesOfTitleNewlineText() throws Exception {
    assertThat(ContentChecksum.of("", ""))
        .isEqualTo("01ba4719c80b6fe911b091a7c05124b64eeece964e09c058ef8f9805daca546b");
    for (List<String> page :
        List.of(
            List.of("Title", "plain ascii"),
            List.of("Café", "naïve façade ½ – “quoted” € 中文 한국어"),
            List.of("", "emoji \uD83D\uDE00 and \uD83C\uDF0D"),
            List.of("unpaired", "high \uD800 alone, low \uDC00 alone, high at the end \uD83D"),
            List.of("nul", "a\u0000b"))) {
      assertThat(ContentChecksum.of(page.get(0), page.get(1)))
          .as(page.toString())
          .isEqualTo(expected(page.get(0), page.get(1)));
      char[] chars = page.get(1).toCharArray();
      PageText.WithChecksum encoded = ContentChecksum.ofUtf8(page.get(0), chars, chars.length);
      assertThat(encoded.checksum()).isEqualTo(expected(page.get(0), page.get(1)));
      assertThat(encoded.utf8Text()).isEqualTo(page.get(1).getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Long texts of every kind of character, with pairs and lone surrogates across chunk ends. */
  @Test
  void equalsTheDefinitionOnGeneratedTexts() throws Exception {
    char[] alphabet = {
      'a', ' ', 'é', '€', '中', '\uD83D', '\uDE00', '\uDC00', '\u0000', '\u07FF', '\u0800', '\uFFFF'
    };
    Random random = new Random(20261124);
    for (int n = 0; n < 300; n++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(3) == 0 ? 2_047 + random.nextInt(3) : random.nextInt(10_000);
      for (int i = 0; i < length; i++) {
        text.append(alphabet[random.nextInt(alphabet.length)]);
      }
      assertThat(ContentChecksum.of("t", text.toString()))
          .isEqualTo(expected("t", text.toString()));
      // the same text read from a longer buffer, as PageText hands it over, and given back in
      // UTF-8 exactly as String.getBytes encodes it
      char[] buffer = new char[text.length() + 7];
      text.getChars(0, text.length(), buffer, 0);
      PageText.WithChecksum encoded = ContentChecksum.ofUtf8("t", buffer, text.length());
      assertThat(encoded.checksum()).isEqualTo(expected("t", text.toString()));
      assertThat(encoded.utf8Text()).isEqualTo(text.toString().getBytes(StandardCharsets.UTF_8));
    }
  }
}
