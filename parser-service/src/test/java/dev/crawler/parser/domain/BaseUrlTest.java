package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.jsoup.internal.StringUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BaseUrlTest {

  @ParameterizedTest(name = "{1} against {0}")
  @CsvSource(
      delimiterString = " ; ",
      textBlock =
          """
          https://n.example/a/b.html?x=1#top ; c.html
          https://n.example/a/b.html?x=1#top ; c/d.html?e=f#g
          https://n.example/a/b.html?x=1#top ; /root
          https://n.example/a/b.html?x=1#top ; /
          https://n.example/a/b.html?x=1#top ; #frag
          https://n.example/a/b.html?x=1#top ; ?y=2
          https://n.example/a/b.html?x=1#top ; https://o.example/p
          https://n.example/a/b.html?x=1#top ; http://o.example
          https://n.example/a/b.html?x=1#top ; https://o.example?q
          https://n.example/a/b.html?x=1#top ; //o.example/p
          https://n.example/a/b.html?x=1#top ; ../up.html
          https://n.example/a/b.html?x=1#top ; ./here.html
          https://n.example/a/b.html?x=1#top ; /a/../b
          https://n.example/a/b.html?x=1#top ; mailto:x@n.example
          https://n.example/a/b.html?x=1#top ; a:b/c
          https://n.example/a/b.html?x=1#top ; %7Euser/page
          https://n.example/a/b.html?x=1#top ; /wiki/Zürich
          https://n.example/a/b.html?x=1#top ; /a%20b
          https://n.example/a/b.html ; c.html#x
          https://n.example/a/b.html ; /?q
          https://n.example/a/b.html ; #
          https://n.example/a/b.html ; ?
          https://n.example/a/b.html ; a/b:c@d
          https://n.example/a/b.html ; https://u@o.example/
          https://n.example/a/b/c.html ; ../d.html
          https://n.example/a/b/c.html ; ../../d.html?q#f
          https://n.example/a/b/c.html ; ../../../d.html
          https://n.example/a/b/c.html ; ./
          https://n.example/a/b/c.html ; .
          https://n.example/a/b/c.html ; ..
          https://n.example/a/b/c.html ; x/./y/../z
          https://n.example/a/b/c.html ; /x/y/..
          https://n.example/a/b/c.html ; /x/./
          https://n.example/a/b/c.html ; /.hidden/.x
          https://n.example/a/b/c.html ; ..a/b
          https://n.example/a/ ; c.html
          https://n.example/a/ ; ?q
          https://n.example ; c.html
          https://n.example ; ?q
          https://n.example ; #f
          https://n.example?x ; c.html
          https://n.example#f ; /p
          https://user@n.example:8443/a/b ; c
          HTTPS://N.Example/A/b ; c
          ftp://n.example/a/b ; c
          not a url ; c.html
          not a url ; https://o.example/x
          """)
  void resolvesAsJsoupDoes(String base, String reference) {
    assertThat(new BaseUrl(base).resolve(reference)).isEqualTo(StringUtil.resolve(base, reference));
  }

  /** References made of the pieces that resolution treats apart (a seeded generator). */
  @Test
  void resolvesGeneratedReferencesAsJsoupDoes() {
    String[] pieces = {
      "a", "b.html", ".", "..", "/", "//", "?", "#", "=", "%41", ":", "@", "é", "~"
    };
    String[] bases = {
      "https://n.example/a/b/c.html?x#y",
      "https://n.example",
      "http://n.example:81/a/",
      "https://n.example/?q"
    };
    Random random = new Random(7);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder reference = new StringBuilder();
      for (int j = random.nextInt(6) + 1; j > 0; j--) {
        reference.append(pieces[random.nextInt(pieces.length)]);
      }
      String base = bases[random.nextInt(bases.length)];

      assertThat(new BaseUrl(base).resolve(reference.toString()))
          .as("%s against %s", reference, base)
          .isEqualTo(StringUtil.resolve(base, reference.toString()));
    }
  }
}
