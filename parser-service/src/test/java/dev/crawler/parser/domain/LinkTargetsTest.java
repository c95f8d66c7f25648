package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.Random;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LinkTargetsTest {

  private static Element link(String pageUrl, String html) {
    Document document = Jsoup.parse(html, pageUrl);
    return document.selectFirst("a, iframe");
  }

  @ParameterizedTest(name = "{1} on {0} -> {2}")
  @CsvSource(
      delimiter = '|',
      nullValues = "NONE",
      value = {
        "http://a.example/dir/page.html | http://B.example:80/x/../y#top | http://b.example/y",
        "http://a.example/dir/page.html | /docs/a.html                   | http://a.example/docs/a.html",
        "https://a.example:8443/d/p     | /docs/./a.html?q=1             | https://a.example:8443/docs/a.html?q=1",
        "http://a.example/dir/page.html | other.html                     | http://a.example/dir/other.html",
        "http://a.example/dir/page.html | ../up.html                     | http://a.example/up.html",
        "http://a.example/a/b/c/p.html  | ../../x/y.html#m(int)          | http://a.example/a/x/y.html",
        "http://a.example/dir/page.html | #top                           | http://a.example/dir/page.html",
        "http://a.example/p.html?q=1    | #method(java.lang.String)      | http://a.example/p.html?q=1",
        "http://a.example/dir/page.html | //c.example/z                  | http://c.example/z",
        "http://a.example/dir/page.html | mailto:x@a.example             | NONE",
        "http://a.example/dir/page.html | javascript:void(0)             | NONE",
      })
  void resolvesAndNormalizesAsTheElementsAbsoluteUrl(String pageUrl, String href, String expected) {
    Element element = link(pageUrl, "<a href='" + href + "'>x</a>");

    Optional<String> target = new LinkTargets(100).of(element, "href");

    assertThat(target).isEqualTo(Optional.ofNullable(expected));
    assertThat(new LinkTargets(0).of(element, "href"))
        .as("the same without remembering")
        .isEqualTo(target);
  }

  @Test
  void remembersAnAbsoluteReferenceWhateverPageItIsOn() {
    LinkTargets targets = new LinkTargets(100);

    targets.of(link("http://a.example/1.html", "<a href='http://b.example/x'>x</a>"), "href");
    Optional<String> second =
        targets.of(link("http://c.example/2.html", "<a href='http://b.example/x'>x</a>"), "href");

    assertThat(second).contains("http://b.example/x");
    assertThat(targets.size()).isEqualTo(1);
  }

  @Test
  void remembersAnAbsolutePathPerSchemeAndAuthorityOfTheBase() {
    LinkTargets targets = new LinkTargets(100);

    Optional<String> onA =
        targets.of(link("http://a.example/1.html", "<a href='/x'>x</a>"), "href");
    Optional<String> onAElsewhere =
        targets.of(link("http://a.example/deep/2.html?q", "<a href='/x'>x</a>"), "href");
    Optional<String> onB =
        targets.of(link("http://b.example/1.html", "<a href='/x'>x</a>"), "href");
    Optional<String> onHttpsA =
        targets.of(link("https://a.example/1.html", "<a href='/x'>x</a>"), "href");

    assertThat(onA).contains("http://a.example/x");
    assertThat(onAElsewhere).contains("http://a.example/x");
    assertThat(onB).contains("http://b.example/x");
    assertThat(onHttpsA).contains("https://a.example/x");
    assertThat(targets.size()).isEqualTo(3);
  }

  @Test
  void resolvesAnAbsolutePathAgainstTheBaseHref() {
    LinkTargets targets = new LinkTargets(100);
    targets.of(link("http://a.example/1.html", "<a href='/x'>x</a>"), "href");

    Optional<String> underBase =
        targets.of(
            link(
                "http://a.example/2.html",
                "<head><base href='http://b.example/in/'></head><a href='/x'>x</a>"),
            "href");

    assertThat(underBase).contains("http://b.example/x");
  }

  @Test
  void remembersAPathRelativeReferencePerDirectoryOfTheBase() {
    LinkTargets targets = new LinkTargets(100);

    Optional<String> first =
        targets.of(link("http://a.example/one/p.html", "<a href='next.html'>x</a>"), "href");
    Optional<String> sameDirectory =
        targets.of(
            link("http://a.example/one/q.html?page=2#top", "<a href='next.html'>x</a>"), "href");
    Optional<String> second =
        targets.of(link("http://a.example/two/p.html", "<a href='next.html'>x</a>"), "href");
    Optional<String> up =
        targets.of(link("http://a.example/two/p.html", "<a href='../up.html'>x</a>"), "href");

    assertThat(first).contains("http://a.example/one/next.html");
    assertThat(sameDirectory).contains("http://a.example/one/next.html");
    assertThat(second).contains("http://a.example/two/next.html");
    assertThat(up).contains("http://a.example/up.html");
    assertThat(targets.size()).isEqualTo(3);
  }

  @Test
  void resolvesAQueryOrFragmentReferenceAgainstEachPage() {
    LinkTargets targets = new LinkTargets(100);

    Optional<String> first =
        targets.of(link("http://a.example/one/p.html", "<a href='?page=2'>x</a>"), "href");
    Optional<String> second =
        targets.of(link("http://a.example/one/q.html", "<a href='?page=2'>x</a>"), "href");

    assertThat(first).contains("http://a.example/one/p.html?page=2");
    assertThat(second).contains("http://a.example/one/q.html?page=2");
    assertThat(targets.size()).isZero();
  }

  /** Every kind of reference on pages of every kind of base: remembered answers are the answers. */
  @Test
  void answersAsWithoutRememberingForEveryKindOfReferenceAndBase() {
    String[] bases = {
      "http://a.example",
      "http://a.example/",
      "http://a.example/d/p.html",
      "http://a.example/d/e/",
      "http://a.example/d/p.html?q=/x/y",
      "http://a.example/d/p#f/g",
      "https://a.example:8443/d/p",
      "http://b.example/d/../p.html",
      "http://a.example/d;x/p",
      "http://a.example/a/b/c/d/p.html",
      "http://a.example/a/b/c/d/p.html?q=1#f",
      "http://a.example/a%2Fb/c/p.html",
      "http://a.example/a/./b/p.html",
      "http://a.example/a/b/",
      "https://a.example/a/b",
    };
    String[] references = {
      "x.html",
      "./x.html",
      "../x.html",
      "../../../x.html",
      ".",
      "..",
      "x/y?q=1#f",
      "x:y",
      "./x:y",
      "?q",
      "#f",
      "",
      " x.html",
      "\tx.html",
      "/abs",
      "//c.example/z",
      "http://c.example/z",
      "HTTP://c.example/z",
      "http:rel",
      "mailto:x@a.example",
      "javascript:void(0)",
      "tel:+1",
      "x y.html",
      "%2e%2e/x",
      "x?",
      "a#",
      "C:\\dir\\f.html",
      "#",
      "#equals(java.lang.Object)",
      "#a:b@c/d?e=f",
      "#%3Cinit%3E()",
      "#a b",
      "#a#b",
      "#\u00e9",
      "x.html#f",
      "x.html#f g",
      "x.html?a=1#f",
      "/abs#f",
      "http://c.example/z#f",
      "../",
      "../../",
      "../../../../",
      "../../../../../x.html",
      "../../x/y.html",
      "../../x/y.html#m(int)",
      "..//x.html",
      "../../x/../y.html",
      "../x.html?a=1&b=2",
      ".././x.html",
    };
    LinkTargets remembering = new LinkTargets(1_000);
    for (int round = 0; round < 2; round++) {
      for (String base : bases) {
        for (String reference : references) {
          Element element = link(base, "<a>x</a>");
          element.attr("href", reference);
          Optional<String> answer = remembering.of(element, "href");
          assertThat(answer)
              .as("%s on %s", reference, base)
              .isEqualTo(new LinkTargets(0).of(element, "href"));
        }
      }
    }
  }

  @ParameterizedTest(name = "{0} from {1}: {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "/docs/a-b_c.d~e.html       | 1 | true",
        "/docs/x.html?ref=related   | 1 | true",
        "/docs/x.html?a=            | 1 | false",
        "/docs/x.html?a=1&b=2       | 1 | false",
        "/docs/x.html?b=2&a=1       | 1 | false",
        "/                          | 1 | true",
        "/docs/                     | 1 | true",
        "/docs//x.html              | 1 | false",
        "/docs/./x.html             | 1 | false",
        "/docs/../x.html            | 1 | false",
        "/docs/..                   | 1 | false",
        "/d%7Ex.html                | 1 | false",
        "/x.html?q                  | 1 | false",
        "/x.html?=v                 | 1 | false",
        "/x.html?a=1&&b=2           | 1 | false",
        "/x.html?a=b=c              | 1 | false",
        "/x.html?                   | 1 | false",
        "/x.html#top                | 1 | false",
        "/café.html            | 1 | false",
        "x.html                     | 0 | true",
        "../x.html                  | 0 | false",
      })
  void knowsWhichReferencesNormalizationLeavesAsTheyAre(
      String reference, int from, boolean simple) {
    assertThat(LinkTargets.isSimple(reference, from)).isEqualTo(simple);
  }

  /**
   * Generated references of simple and not so simple characters on bases in and out of normal form:
   * the shortcut never answers otherwise.
   */
  @Test
  void answersAsWithoutRememberingForGeneratedReferences() {
    String[] bases = {
      "http://a.example/d/p.html",
      "http://127.0.0.17:8080/blog/x-1.html",
      "HTTP://A.Example:80/D/p.html",
      "http://a.example/%7Ed/p",
      "https://a.example/d;x/p?q=1",
      "http://a.example",
      "http://a.example/a/b/c/p.html",
    };
    String[] pieces = {
      "a", "B", "0", "-", ".", "_", "~", "/", "?", "=", "&", "%41", "%7e", "#", " ", "\u00e9", ":",
      "..", "./", "x.html", "//", "+", ";", "?b=2", "&a=1", "?a=1", "&b=2", "?A=1", "&c", "../",
      "#f", "#m(a,b)", "(", "@", "!",
    };
    String[] starts = {
      "",
      "/",
      "http://a.example/",
      "http://B.example/",
      "https://a.example:443/",
      "http://127.0.0.3:8080/",
      "#",
      "../",
      "../../",
    };
    Random random = new Random(20261124);
    LinkTargets remembering = new LinkTargets(100_000);
    for (int n = 0; n < 20_000; n++) {
      StringBuilder reference = new StringBuilder(starts[random.nextInt(starts.length)]);
      for (int i = random.nextInt(6); i >= 0; i--) {
        reference.append(pieces[random.nextInt(pieces.length)]);
      }
      Element element = link(bases[random.nextInt(bases.length)], "<a>x</a>");
      element.attr("href", reference.toString());
      assertThat(remembering.of(element, "href"))
          .as("%s on %s", reference, element.baseUri())
          .isEqualTo(new LinkTargets(0).of(element, "href"));
    }
  }

  @Test
  void holdsNoMoreThanItsCapacity() {
    LinkTargets targets = new LinkTargets(2);

    for (String path : new String[] {"/a", "/b", "/c", "/a"}) {
      assertThat(targets.of(link("http://a.example/", "<a href='" + path + "'>x</a>"), "href"))
          .contains("http://a.example" + path);
    }

    assertThat(targets.size()).isEqualTo(2);
  }

  @Test
  void readsTheFrameSource() {
    Element frame = link("http://a.example/p", "<iframe src='/inner.html'></iframe>");

    assertThat(new LinkTargets(10).of(frame, "src")).contains("http://a.example/inner.html");
  }
}
