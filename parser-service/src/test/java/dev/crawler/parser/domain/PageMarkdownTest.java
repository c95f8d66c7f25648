package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.strikethrough.StrikethroughExtension;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.BulletList;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.OrderedList;
import org.commonmark.parser.Parser;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PageMarkdownTest {

  private static final String BASE = "https://news.example/section/story.html";

  /** GitHub Flavored Markdown as a reader reads it: the test's judge of what the output means. */
  private static final List<Extension> GFM =
      List.of(TablesExtension.create(), StrikethroughExtension.create());

  private static final Parser READER = Parser.builder().extensions(GFM).build();

  private static String markdown(String html) {
    return PageMarkdown.of(Jsoup.parse(html, BASE).body(), BASE, 100_000).markdown();
  }

  /** The expected markdown of a table row: {@code ↵} stands for a line feed. */
  private static String lines(String expected) {
    return expected.replace('↵', '\n');
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      textBlock =
          """
          '<h1>One</h1><h2>Two</h2><h3>Three <em>it</em></h3>' => '# One↵↵## Two↵↵### Three *it*'
          '<h4>Four</h4><h5>Five</h5><h6>Six</h6>' => '#### Four↵↵##### Five↵↵###### Six'
          '<h2>  Spaced <br> heading  </h2><h3></h3>' => '## Spaced heading'
          '<h2>Issue #</h2>' => '## Issue \\#'
          """)
  void keepsHeadingLevels(String html, String expected) {
    assertThat(markdown(html)).isEqualTo(lines(expected));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      textBlock =
          """
          '<ul><li>a</li><li>b</li></ul>' => '- a↵- b'
          '<ul><li>a<ul><li>a1</li><li>a2<ul><li>deep</li></ul></li></ul></li><li>b</li></ul>' => '- a↵  - a1↵  - a2↵    - deep↵- b'
          '<ol><li>one</li><li>two</li></ol>' => '1. one↵2. two'
          '<ol start="9"><li>nine</li><li>ten</li><li>eleven</li></ol>' => '9. nine↵10. ten↵11. eleven'
          '<ol><li>a</li><li value="7">seven</li><li>eight</li></ol>' => '1. a↵7. seven↵8. eight'
          '<ul><li>x<ol><li>first</li><li>second</li></ol></li></ul>' => '- x↵  1. first↵  2. second'
          '<ol><li><p>para</p><p>more</p></li><li>next</li></ol>' => '1. para↵↵   more↵2. next'
          '<ul><li>x</li></ul><ul><li>y</li></ul>' => '- x↵↵* y'
          '<ul><li></li><li> </li><li>only</li></ul>' => '- only'
          '<p>Before</p><ul><li>item</li></ul><p>After</p>' => 'Before↵↵- item↵↵After'
          '<dl><dt>Term</dt><dd>Meaning</dd></dl>' => '**Term**↵↵Meaning'
          """)
  void writesListsNestedAndOrdered(String html, String expected) {
    assertThat(markdown(html)).isEqualTo(lines(expected));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      textBlock =
          """
          '<table><thead><tr><th>Name</th><th>Qty</th></tr></thead><tbody><tr><td>apple</td><td>3</td></tr></tbody></table>' => '| Name | Qty |↵| --- | --- |↵| apple | 3 |'
          '<table><tr><th align="left">L</th><th style="text-align: right">R</th><th align="center">C</th><th>N</th></tr><tr><td>1</td><td>2</td><td>3</td><td>4</td></tr></table>' => '| L | R | C | N |↵| :--- | ---: | :---: | --- |↵| 1 | 2 | 3 | 4 |'
          '<table><tr><td>no</td><td>head</td></tr><tr><td>a|b</td><td><code>x|y</code></td></tr></table>' => '| no | head |↵| --- | --- |↵| a\\|b | `x\\|y` |'
          '<table><tr><th>a</th><th>b</th><th>c</th></tr><tr><td colspan="2">wide</td><td>z</td></tr><tr><td rowspan="2">tall</td><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table>' => '| a | b | c |↵| --- | --- | --- |↵| wide | | z |↵| tall | 1 | 2 |↵| | 3 | 4 |'
          '<table><caption>Prices</caption><tr><th>x</th><th>y</th></tr><tr><td><p>one</p><p>two<br>lines</p></td><td><ul><li>i</li><li>j</li></ul></td></tr></table>' => 'Prices↵↵| x | y |↵| --- | --- |↵| one two lines | i j |'
          '<table><tfoot><tr><td>foot</td><td>f</td></tr></tfoot><tbody><tr><td>body</td><td>b</td></tr></tbody><thead><tr><th>head</th><th>h</th></tr></thead></table>' => '| head | h |↵| --- | --- |↵| body | b |↵| foot | f |'
          '<table><tr><td><p>layout</p></td></tr><tr><td>table</td></tr></table>' => 'layout↵↵table'
          """)
  void writesTablesAsGfmTables(String html, String expected) {
    assertThat(markdown(html)).isEqualTo(lines(expected));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      textBlock =
          """
          '<pre><code class="language-java hljs">int x = 1;&#10;&#10;if (a &lt; b) {}</code></pre>' => '```java↵int x = 1;↵↵if (a < b) {}↵```'
          '<pre class="lang-python">print(1)</pre>' => '```python↵print(1)↵```'
          '<pre><code class="lang-sh">ls -l</code></pre>' => '```sh↵ls -l↵```'
          '<div class="highlight-python3 notranslate"><div class="highlight"><pre><span class="k">import</span> json</pre></div></div>' => '```python3↵import json↵```'
          '<div class="highlight-default notranslate"><div class="highlight"><pre>x</pre></div></div>' => '```↵x↵```'
          '<pre>  indented&#10;    kept  &#10;</pre>' => '```↵  indented↵    kept↵```'
          '<pre><code>a ``` b</code></pre>' => '````↵a ``` b↵````'
          '<pre>line<br>break</pre>' => '```↵line↵break↵```'
          '<ul><li><pre><code>in item</code></pre></li></ul>' => '- ```↵  in item↵  ```'
          '<p>Call <code>f(x)</code> or <kbd>Ctrl</kbd>, <code>a`b</code>, <code>`q`</code></p>' => 'Call `f(x)` or `Ctrl`, ``a`b``, `` `q` ``'
          """)
  void fencesCodeWithItsLanguage(String html, String expected) {
    assertThat(markdown(html)).isEqualTo(lines(expected));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      textBlock =
          """
          '<blockquote><p>Quoted <em>words</em></p><p>Second</p></blockquote>' => '> Quoted *words*↵>↵> Second'
          '<blockquote>outer<blockquote>inner</blockquote></blockquote><p>after</p>' => '> outer↵>↵> > inner↵↵after'
          '<p><strong>bold</strong> <b>b</b> <em>em</em> <i>i</i> <del>gone</del> <s>s</s></p>' => '**bold** **b** *em* *i* ~~gone~~ ~~s~~'
          '<p>a<b> spaced </b>b<em></em>c<b><b>twice</b></b></p>' => 'a **spaced** bc**twice**'
          """)
  void writesQuotesAndEmphasis(String html, String expected) {
    assertThat(markdown(html)).isEqualTo(lines(expected));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      textBlock =
          """
          '<a href="/about">About</a>' => '[About](https://news.example/about)'
          '<a href="next.html?p=2#top">Next</a>' => '[Next](https://news.example/section/next.html?p=2#top)'
          '<a href="https://other.example/x">Abs</a>' => '[Abs](https://other.example/x)'
          '<a href="mailto:desk@news.example">Mail</a>' => '[Mail](mailto:desk@news.example)'
          '<a href="javascript:void(0)">Menu</a> <a href=" JavaScript:go()">Go</a>' => 'Menu Go'
          '<a href="data:text/html,x">Data</a> <a>No href</a> <a href="">Empty</a>' => 'Data No href Empty'
          '<a href="/icon"><img src="i.png"></a>text' => 'text'
          '<a href="/a b(c)">Odd</a>' => '[Odd](https://news.example/a%20b%28c%29)'
          '<a href="/x"> <b>Bold</b> link </a>!' => '[**Bold** link](https://news.example/x) !'
          '<a href="/post"><h2>Card</h2><p>Excerpt</p></a>' => '## [Card](https://news.example/post)↵↵[Excerpt](https://news.example/post)'
          """)
  void writesLinksWithAbsoluteUrls(String html, String expected) {
    assertThat(markdown(html)).isEqualTo(lines(expected));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      textBlock =
          """
          '<p>A <img src="cat.png" alt="sleeping cat"> here <img src="x.png"></p>' => 'A sleeping cat here'
          '<figure><img src="c.png" alt="Chart"><figcaption>Sales by year</figcaption></figure>' => 'Chart↵↵Sales by year'
          '<a href="/big"><img src="t.png" alt="Thumbnail"></a>' => '[Thumbnail](https://news.example/big)'
          """)
  void writesImagesAsTheirAltText(String html, String expected) {
    assertThat(markdown(html)).isEqualTo(lines(expected));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      textBlock =
          """
          '<p>kept</p><script>alert(1)</script><style>p{}</style><noscript>Enable JS</noscript>' => 'kept'
          '<p>a</p><iframe src="/ad"></iframe><object data="x">obj</object><svg><text>t</text></svg><video>v</video>b' => 'a↵↵b'
          '<form><label>Name</label> <input value="v"><button>Send</button><select><option>o</option></select><textarea>t</textarea></form>' => 'Name'
          '<p>x <span hidden>secret</span>y</p><template><p>tpl</p></template><dialog>Cookies?</dialog>' => 'x y'
          '<custom-card>Custom <font color="red">font</font> <mark>mark</mark> <u>u</u> <sup>2</sup></custom-card>' => 'Custom font mark u 2'
          '<p>&lt;b&gt;not bold&lt;/b&gt; &lt;!-- no comment --&gt; <!-- real comment --></p>' => '\\<b>not bold\\</b> \\<!-- no comment --> '
          """)
  void writesNoHtml(String html, String expected) {
    assertThat(markdown(html)).isEqualTo(lines(expected).strip());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      textBlock =
          """
          '<p>*stars* _under_ snake_case __init__ [x](y) `tick` ~tilde~ back\\slash</p>' => '\\*stars\\* \\_under\\_ snake_case \\_\\_init\\_\\_ \\[x\\](y) \\`tick\\` \\~tilde\\~ back\\\\slash'
          '<p># not a heading</p><p>&gt; not a quote</p><p>- not an item</p><p>+ nor</p><p>1. nor this</p><p>2024) neither</p>' => '\\# not a heading↵↵\\> not a quote↵↵\\- not an item↵↵\\+ nor↵↵1\\. nor this↵↵2024\\) neither'
          '<p>x<br>---</p><p>y<br>===</p>' => 'x\\↵\\---↵↵y\\↵\\==='
          '<p>AT&amp;T &amp;amp; &amp;#169;</p>' => 'AT&T \\&amp; \\&#169;'
          """)
  void escapesWhatWouldReadAsMarkdown(String html, String expected) {
    assertThat(markdown(html)).isEqualTo(lines(expected));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      textBlock =
          """
          '  <p>  many   spaces&nbsp;&nbsp;and&#9;tabs&#10;and lines  </p>  ' => 'many spaces and tabs and lines'
          '<div>text<div>block</div>more</div>' => 'text↵↵block↵↵more'
          '<p>line<br>break<br><br>new paragraph<br></p>' => 'line\\↵break↵↵new paragraph'
          '<p></p><div> </div><p>only</p><hr><p>after</p>' => 'only↵↵---↵↵after'
          '<p>a&#8203;b soft&shy;hyphen</p>' => 'ab softhyphen'
          """)
  void normalizesWhitespace(String html, String expected) {
    assertThat(markdown(html)).isEqualTo(lines(expected));
  }

  @Test
  void truncatesAtTheLastBlockThatFits() {
    Element body = Jsoup.parse("<p>first block</p><p>second block</p><p>third</p>").body();

    // "first block\n\nsecond block" is 25 characters; the third block needs 7 more
    assertThat(PageMarkdown.of(body, BASE, 30))
        .isEqualTo(new PageMarkdown("first block\n\nsecond block", true));
    assertThat(PageMarkdown.of(body, BASE, 31))
        .isEqualTo(new PageMarkdown("first block\n\nsecond block", true));
    assertThat(PageMarkdown.of(body, BASE, 32))
        .isEqualTo(new PageMarkdown("first block\n\nsecond block\n\nthird", false));
  }

  @Test
  void truncatesATableAtItsLastRowThatFits() {
    Element body =
        Jsoup.parse(
                "<table><tr><th>h</th><th>i</th></tr><tr><td>1</td><td>2</td></tr>"
                    + "<tr><td>3</td><td>4</td></tr></table><p>after</p>")
            .body();

    assertThat(PageMarkdown.of(body, BASE, 40))
        .isEqualTo(new PageMarkdown("| h | i |\n| --- | --- |\n| 1 | 2 |", true));
  }

  @Test
  void cutsTheFirstBlockWhenNotEvenItFits() {
    Element body = Jsoup.parse("<p>a long first paragraph</p><p>second</p>").body();

    assertThat(PageMarkdown.of(body, BASE, 6)).isEqualTo(new PageMarkdown("a long", true));
    assertThat(PageMarkdown.of(body, BASE, 0)).isEqualTo(new PageMarkdown("", true));
  }

  @Test
  void neverSplitsASurrogatePairWhenCutting() {
    Element body = Jsoup.parse("<p>ab\uD83D\uDE00cd</p>").body();

    assertThat(PageMarkdown.of(body, BASE, 3)).isEqualTo(new PageMarkdown("ab", true));
  }

  @Test
  void stopsReadingAParagraphThatCannotFit() {
    Element body = Jsoup.parse("<p>short</p><p>" + "word ".repeat(100_000) + "</p>").body();

    assertThat(PageMarkdown.of(body, BASE, 1_000)).isEqualTo(new PageMarkdown("short", true));
  }

  @Test
  void isEmptyForContentWithoutText() {
    assertThat(PageMarkdown.of(Jsoup.parse("<div> <script>x</script></div>").body(), BASE, 10))
        .isEqualTo(PageMarkdown.EMPTY);
  }

  @Test
  void rejectsANegativeBound() {
    Element body = Jsoup.parse("<p>x</p>").body();

    assertThatThrownBy(() -> PageMarkdown.of(body, BASE, -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void resolvesAgainstTheBaseGivenWhenTheContentIsDetached() {
    // content-keep gathers the kept elements under an element of its own, outside the document
    Document document = Jsoup.parse("<article><a href='/a'>A</a></article>", BASE);
    Element kept = new Element("div").appendChild(document.selectFirst("article"));

    assertThat(PageMarkdown.of(kept, BASE, 100).markdown())
        .isEqualTo("[A](https://news.example/a)");
  }

  @Test
  void leavesTheTreeAsItWas() {
    Document document =
        Jsoup.parse("<h1>T</h1><ul><li>a<li>b</ul><table><tr><td>x<td>y</table>", BASE);
    String before = document.outerHtml();

    PageMarkdown.of(document.body(), BASE, 100);

    assertThat(document.outerHtml()).isEqualTo(before);
  }

  @Test
  void readsBackAsTheStructureItWasMadeFrom() {
    String html =
        """
        <article>
          <h1>Title</h1><p>Intro with <a href="/x">a link</a> and <code>code</code>.</p>
          <h2>List</h2><ul><li>one<ol><li>nested</li></ol></li><li>two</li></ul>
          <h3>Table</h3><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>
          <pre><code class="language-js">let x = 1;</code></pre>
          <blockquote><p>quoted <a href="https://o.example/">out</a></p></blockquote>
        </article>
        """;

    Node document = READER.parse(markdown(html));

    Counts counts = Counts.of(document);
    assertThat(counts.headings).containsExactly(1, 2, 3);
    assertThat(counts.links).containsExactly("https://news.example/x", "https://o.example/");
    assertThat(counts.bulletLists).isEqualTo(1);
    assertThat(counts.orderedLists).isEqualTo(1);
    assertThat(counts.tables).isEqualTo(1);
    assertThat(counts.codeLanguages).containsExactly("js");
    assertThat(counts.html).isZero();
  }

  /**
   * Whatever the HTML, a markdown reader finds no HTML in the output: random trees of the elements
   * and characters that would let HTML through (a seeded generator, so a failure repeats).
   */
  @Test
  void letsNoHtmlThroughWhateverTheTree() {
    Random random = new Random(20_240_611L);
    for (int i = 0; i < 500; i++) {
      String html = randomHtml(random, 0);

      String markdown = markdown(html);

      assertThat(Counts.of(READER.parse(markdown)).html)
          .as("HTML read in the markdown of %s:%n%s", html, markdown)
          .isZero();
    }
  }

  private static final String[] TAGS = {
    "p",
    "div",
    "span",
    "b",
    "i",
    "em",
    "code",
    "pre",
    "a",
    "ul",
    "ol",
    "li",
    "table",
    "tr",
    "td",
    "th",
    "blockquote",
    "h2",
    "br",
    "img",
    "script",
    "custom-x",
    "q",
    "del",
    "dl",
    "dt",
    "dd"
  };

  private static final String[] TEXTS = {
    "<b>",
    "</i>",
    "<!-- c -->",
    "<?x?>",
    "<a href=x>",
    "a < b",
    "<https://x.example>",
    "&lt;tag&gt;",
    "* _ ` [ ] ( )",
    "# h",
    "> q",
    "- i",
    "1. n",
    "| p |",
    "~~s~~",
    "\\",
    "text"
  };

  private static String randomHtml(Random random, int depth) {
    StringBuilder html = new StringBuilder();
    int count = 1 + random.nextInt(4);
    for (int i = 0; i < count; i++) {
      if (depth > 4 || random.nextInt(3) == 0) {
        String text = TEXTS[random.nextInt(TEXTS.length)];
        html.append(
            random.nextBoolean() ? Jsoup.parse("").createElement("x").text(text).html() : text);
      } else {
        String tag = TAGS[random.nextInt(TAGS.length)];
        String attributes =
            switch (tag) {
              case "a" -> " href=\"" + TEXTS[random.nextInt(TEXTS.length)] + "\"";
              case "img" -> " alt=\"" + TEXTS[random.nextInt(TEXTS.length)] + "\"";
              case "code", "pre" -> " class=\"language-<x>\"";
              default -> "";
            };
        html.append('<').append(tag).append(attributes).append('>');
        html.append(randomHtml(random, depth + 1));
        html.append("</").append(tag).append('>');
      }
    }
    return html.toString();
  }

  /** What a markdown reader found in a document. */
  private static final class Counts extends AbstractVisitor {
    final List<Integer> headings = new ArrayList<>();
    final List<String> links = new ArrayList<>();
    final List<String> codeLanguages = new ArrayList<>();
    int bulletLists;
    int orderedLists;
    int tables;
    int html;

    static Counts of(Node document) {
      Counts counts = new Counts();
      document.accept(counts);
      return counts;
    }

    @Override
    public void visit(Heading heading) {
      headings.add(heading.getLevel());
      visitChildren(heading);
    }

    @Override
    public void visit(Link link) {
      links.add(link.getDestination());
      visitChildren(link);
    }

    @Override
    public void visit(BulletList list) {
      bulletLists++;
      visitChildren(list);
    }

    @Override
    public void visit(OrderedList list) {
      orderedLists++;
      visitChildren(list);
    }

    @Override
    public void visit(FencedCodeBlock code) {
      codeLanguages.add(code.getInfo());
    }

    @Override
    public void visit(HtmlBlock block) {
      html++;
    }

    @Override
    public void visit(HtmlInline inline) {
      html++;
    }

    @Override
    public void visit(org.commonmark.node.CustomBlock block) {
      if (block instanceof TableBlock) {
        tables++;
      }
      visitChildren(block);
    }
  }
}
