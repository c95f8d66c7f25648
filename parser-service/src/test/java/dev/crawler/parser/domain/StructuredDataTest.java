package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.parser.domain.StructuredData.Item;
import dev.crawler.parser.domain.StructuredData.Problem;
import dev.crawler.parser.domain.StructuredData.Source;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StructuredDataTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static StructuredData of(String html, String url) {
    return StructuredData.of(Jsoup.parse(html, url));
  }

  private static String jsonLd(String json) {
    return "<script type=\"application/ld+json\">" + json + "</script>";
  }

  /** A news article as publishing plugins write it: one JSON-LD graph, Open Graph, Twitter. */
  private static final String NEWS_ARTICLE =
      """
      <!doctype html><html lang="en"><head>
      <title>Council approves the new bridge</title>
      <meta property="og:type" content="article">
      <meta property="og:title" content="Council approves the new bridge">
      <meta property="og:url" content="https://news.example/2024/03/bridge">
      <meta property="og:image" content="https://news.example/img/bridge-1200.jpg">
      <meta property="og:image:width" content="1200">
      <meta property="og:image" content="https://news.example/img/bridge-600.jpg">
      <meta property="article:published_time" content="2024-03-05T09:30:00+01:00">
      <meta property="article:tag" content="Transport">
      <meta property="article:tag" content="City council">
      <meta property="fb:app_id" content="12345">
      <meta name="twitter:card" content="summary_large_image">
      <meta name="twitter:site" content="@newsexample">
      <meta name="twitter:title" content="Council approves
          the new bridge">
      <meta name="description" content="not Open Graph">
      <meta property="og:description" content="">
      <script type="application/ld+json">
      {"@context": "https://schema.org", "@graph": [
        {"@type": "NewsArticle", "@id": "https://news.example/2024/03/bridge#article",
         "headline": "Council approves the new bridge",
         "datePublished": "2024-03-05T09:30:00+01:00", "dateModified": "2024-03-05T11:00:00+01:00",
         "author": {"@id": "https://news.example/#/person/ada"},
         "publisher": {"@id": "https://news.example/#org"},
         "image": {"@type": "ImageObject", "url": "https://news.example/img/bridge-1200.jpg", "width": 1200},
         "keywords": ["bridge", "council"], "wordCount": 812, "isAccessibleForFree": true},
        {"@type": "WebPage", "@id": "https://news.example/2024/03/bridge",
         "name": "Council approves the new bridge - News", "datePublished": "2024-03-04"},
        {"@type": "Person", "@id": "https://news.example/#/person/ada", "name": "Ada Lovelace"},
        {"@type": ["Organization", "NewsMediaOrganization"], "@id": "https://news.example/#org",
         "name": "News Example", "logo": {"@type": "ImageObject", "url": "https://news.example/logo.png"}},
        {"@type": "BreadcrumbList", "itemListElement": [
          {"@type": "ListItem", "position": 1, "name": "Home", "item": "https://news.example/"},
          {"@type": "ListItem", "position": 2, "name": "City", "item": "https://news.example/city/"}]}
      ]}
      </script>
      </head><body><article><h1>Council approves the new bridge</h1><p>Text.</p></article></body></html>
      """;

  @Test
  void readsANewsArticlesGraphOpenGraphAndTwitterCard() throws Exception {
    StructuredData data = of(NEWS_ARTICLE, "https://news.example/2024/03/bridge");

    assertThat(data.items())
        .extracting(Item::types)
        .containsExactly(
            List.of("NewsArticle"),
            List.of("WebPage"),
            List.of("Person"),
            List.of("Organization", "NewsMediaOrganization"),
            List.of("BreadcrumbList"));
    assertThat(data.items()).extracting(Item::source).containsOnly(Source.JSON_LD);
    Item article = data.items().get(0);
    assertThat(article.id()).contains("https://news.example/2024/03/bridge#article");
    assertThat(article.properties())
        .containsEntry("headline", List.of("Council approves the new bridge"))
        .containsEntry("author.@id", List.of("https://news.example/#/person/ada"))
        .containsEntry("image.@type", List.of("ImageObject"))
        .containsEntry("image.width", List.of("1200"))
        .containsEntry("keywords", List.of("bridge", "council"))
        .containsEntry("wordCount", List.of("812"))
        .containsEntry("isAccessibleForFree", List.of("true"))
        .doesNotContainKeys("@type", "@id", "@context");
    assertThat(data.items().get(4).properties())
        .containsEntry("itemListElement.name", List.of("Home", "City"))
        .containsEntry("itemListElement.position", List.of("1", "2"));
    // each item's JSON stands on its own, with its graph's context
    JsonNode json = JSON.readTree(article.json());
    assertThat(json.get("@context").asText()).isEqualTo("https://schema.org");
    assertThat(json.get("headline").asText()).isEqualTo("Council approves the new bridge");

    assertThat(data.openGraph())
        .containsExactly(
            Map.entry("og:type", List.of("article")),
            Map.entry("og:title", List.of("Council approves the new bridge")),
            Map.entry("og:url", List.of("https://news.example/2024/03/bridge")),
            Map.entry(
                "og:image",
                List.of(
                    "https://news.example/img/bridge-1200.jpg",
                    "https://news.example/img/bridge-600.jpg")),
            Map.entry("og:image:width", List.of("1200")),
            Map.entry("article:published_time", List.of("2024-03-05T09:30:00+01:00")),
            Map.entry("article:tag", List.of("Transport", "City council")),
            Map.entry("fb:app_id", List.of("12345")));
    assertThat(data.twitter())
        .containsExactly(
            Map.entry("twitter:card", List.of("summary_large_image")),
            Map.entry("twitter:site", List.of("@newsexample")),
            Map.entry("twitter:title", List.of("Council approves the new bridge")));

    // the article's date wins over the web page's; its author is found by @id
    assertThat(data.datePublished()).contains("2024-03-05T09:30:00+01:00");
    assertThat(data.publishedAt()).contains(Instant.parse("2024-03-05T08:30:00Z"));
    assertThat(data.authors()).containsExactly("Ada Lovelace");
    assertThat(data.problems()).isEmpty();
  }

  /** A product page with microdata: nested brand, offers and rating, an itemref'd review. */
  private static final String PRODUCT =
      """
      <html><head><base href="https://shop.example/catalog/"></head><body>
      <div itemscope itemtype="https://schema.org/Product" itemid="sku/4711" itemref="reviews">
        <h1 itemprop="name">Trail   Shoe
          X</h1>
        <img itemprop="image" src="img/shoe.jpg" alt="Shoe">
        <meta itemprop="sku" content="4711">
        <div itemprop="brand" itemscope itemtype="http://schema.org/Brand">
          <span itemprop="name">Acme</span></div>
        <p itemprop="description">Light and <b>grippy</b>.</p>
        <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
          <span itemprop="priceCurrency" content="EUR">€</span>
          <data itemprop="price" value="89.90">89,90</data>
          <link itemprop="availability" href="https://schema.org/InStock">In stock
          <time itemprop="priceValidUntil" datetime="2024-12-31">end of year</time>
          <a itemprop="url" href="/buy/4711">Buy</a>
        </div>
        <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
          <meta itemprop="price" content="79.90"><meta itemprop="priceCurrency" content="EUR">
        </div>
        <div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">
          <meta itemprop="ratingValue" content="4.6"><meta itemprop="reviewCount" content="87">
        </div>
      </div>
      <section id="reviews">
        <div itemprop="review" itemscope itemtype="https://schema.org/Review">
          <span itemprop="author">Grace</span> <meter itemprop="reviewRating" value="5">5</meter>
        </div>
      </section>
      <div itemscope itemtype="https://schema.org/BreadcrumbList">
        <span itemprop="itemListElement">Shoes</span></div>
      </body></html>
      """;

  @Test
  void readsAProductsMicrodataWithNestedOffers() throws Exception {
    StructuredData data = of(PRODUCT, "https://shop.example/catalog/shoe");

    assertThat(data.items())
        .extracting(Item::types)
        .containsExactly(List.of("Product"), List.of("BreadcrumbList"));
    Item product = data.items().get(0);
    assertThat(product.source()).isEqualTo(Source.MICRODATA);
    assertThat(product.id()).contains("https://shop.example/catalog/sku/4711");
    assertThat(product.properties())
        .containsEntry("name", List.of("Trail Shoe X"))
        .containsEntry("image", List.of("https://shop.example/catalog/img/shoe.jpg"))
        .containsEntry("sku", List.of("4711"))
        .containsEntry("brand.@type", List.of("Brand"))
        .containsEntry("brand.name", List.of("Acme"))
        .containsEntry("description", List.of("Light and grippy."))
        .containsEntry("offers.@type", List.of("Offer", "Offer"))
        .containsEntry("offers.price", List.of("89.90", "79.90"))
        .containsEntry("offers.priceCurrency", List.of("€", "EUR"))
        .containsEntry("offers.availability", List.of("https://schema.org/InStock"))
        .containsEntry("offers.priceValidUntil", List.of("2024-12-31"))
        .containsEntry("offers.url", List.of("https://shop.example/buy/4711"))
        .containsEntry("aggregateRating.ratingValue", List.of("4.6"))
        .containsEntry("review.author", List.of("Grace"))
        .containsEntry("review.reviewRating", List.of("5"));
    // the HTML standard's JSON form, nested items as objects
    JsonNode json = JSON.readTree(product.json());
    assertThat(json.get("type").get(0).asText()).isEqualTo("https://schema.org/Product");
    JsonNode offers = json.get("properties").get("offers");
    assertThat(offers).hasSize(2);
    assertThat(offers.get(1).get("properties").get("price").get(0).asText()).isEqualTo("79.90");
    assertThat(data.datePublished()).isEmpty();
    assertThat(data.problems()).isEmpty();
  }

  /** A recipe: its authors an array of a Person and a string, its steps nested. */
  private static final String RECIPE =
      """
      <html><head><script type="application/ld+json">
      <!--
      {
        "@context": "https://schema.org/",
        "@type": "Recipe",
        "name": "Lemon Tart",
        "author": [{"@type": "Person", "name": "Mary Berry"}, "Paul Hollywood",
                   {"@type": "Organization", "name": "Bake Club"}, "Mary Berry"],
        "datePublished": "2023-11-02",
        "recipeYield": "8 slices",
        "recipeIngredient": ["200 g flour", "3 lemons", "150 g sugar"],
        "nutrition": {"@type": "NutritionInformation", "calories": "320 kcal"},
        "recipeInstructions": [
          {"@type": "HowToStep", "text": "Make the pastry."},
          {"@type": "HowToStep", "text": "Bake blind, 15 minutes."}
        ],
        "aggregateRating": {"@type": "AggregateRating", "ratingValue": 4.8, "ratingCount": "212"},
      }
      -->
      </script></head><body></body></html>
      """;

  @Test
  void readsARecipeWithItsAuthorsAndSteps() {
    StructuredData data = of(RECIPE, "https://bake.example/lemon-tart");

    assertThat(data.items())
        .singleElement()
        .satisfies(
            recipe -> {
              assertThat(recipe.types()).containsExactly("Recipe");
              assertThat(recipe.properties())
                  .containsEntry(
                      "recipeIngredient", List.of("200 g flour", "3 lemons", "150 g sugar"))
                  .containsEntry("recipeInstructions.@type", List.of("HowToStep", "HowToStep"))
                  .containsEntry(
                      "recipeInstructions.text",
                      List.of("Make the pastry.", "Bake blind, 15 minutes."))
                  .containsEntry("nutrition.calories", List.of("320 kcal"))
                  .containsEntry("aggregateRating.ratingValue", List.of("4.8"))
                  .containsEntry("author.name", List.of("Mary Berry", "Bake Club"))
                  .containsEntry("author", List.of("Paul Hollywood", "Mary Berry"));
              assertThat(recipe.first("recipeYield")).contains("8 slices");
            });
    assertThat(data.authors()).containsExactly("Mary Berry", "Paul Hollywood", "Bake Club");
    assertThat(data.datePublished()).contains("2023-11-02");
    assertThat(data.publishedAt()).contains(Instant.parse("2023-11-02T00:00:00Z"));
  }

  @Test
  void reportsAMalformedBlockAndReadsTheOthers() {
    StructuredData data =
        of(
            jsonLd("{\"@type\": \"Organization\", \"name\": \"First\"}")
                + jsonLd("{\"@type\": \"Article\",\n \"headline\": \"Broken\" \"author\": \"X\"}")
                + jsonLd("{\"@type\": \"Article\", \"headline\": \"Third\", \"author\": \"Y\"}"),
            "https://a.example/");

    assertThat(data.items())
        .extracting(item -> item.first("name").or(() -> item.first("headline")).orElseThrow())
        .containsExactly("First", "Third");
    assertThat(data.problems())
        .singleElement()
        .satisfies(
            problem -> {
              assertThat(problem.block()).isEqualTo(1);
              assertThat(problem.message())
                  .startsWith("malformed JSON: Unexpected character ('\"'")
                  .contains("(line 2, column 23)")
                  .endsWith("; skipped");
            });
    assertThat(data.authors()).containsExactly("Y");
  }

  @Test
  void skipsAndReportsABlockOverItsBoundAndBlocksOverThePagesBound() {
    String padding = " ".repeat(60_000);
    String big = "{\"@type\": \"Thing\", \"name\": \"" + "x".repeat(JsonLd.MAX_BLOCK_CHARS) + "\"}";
    StringBuilder html = new StringBuilder(jsonLd(big));
    for (int i = 0; i < 5; i++) {
      html.append(jsonLd("{\"@type\": \"Thing\", \"name\": \"n" + i + "\"}" + padding));
    }

    StructuredData data = of(html.toString(), "https://a.example/");

    // four blocks of 60,000 characters fit in the 262,144 read per page; the fifth does not
    assertThat(data.items())
        .extracting(item -> item.first("name").orElseThrow())
        .containsExactly("n0", "n1", "n2", "n3");
    assertThat(data.problems()).extracting(Problem::block).containsExactly(0, 5);
    assertThat(data.problems().get(0).message())
        .isEqualTo(big.length() + " characters, over the 65536 a block may have; skipped");
    assertThat(data.problems().get(1).message()).startsWith("over the 262144 characters");
  }

  @Test
  void isNoneForAPageWithoutStructuredData() {
    StructuredData data =
        of(
            "<html><head><meta name=description content=x><script>var ld = 1;</script></head>"
                + "<body><p itemprop=orphan>no item</p></body></html>",
            "https://a.example/");

    assertThat(data).isEqualTo(StructuredData.NONE);
  }

  @Test
  void prefersAnArticlesDateAndAuthorsOverAWebPagesWhereverItStands() {
    StructuredData data =
        of(
            jsonLd(
                """
                    [{"@type": "WebPage", "datePublished": "2020-01-01", "author": "Page"},
                     {"@type": "Product", "datePublished": "2019-01-01", "author": "Maker"},
                     {"@type": "BlogPosting", "datePublished": {"@value": "2021-02-03T04:05:06Z"},
                      "author": [{"@type": "Organization", "name": "  The   Team "}]}]
                    """),
            "https://a.example/");

    assertThat(data.datePublished()).contains("2021-02-03T04:05:06Z");
    assertThat(data.authors()).containsExactly("The Team");
  }

  @Test
  void fallsBackOnAWebPagesDateAndAuthor() {
    StructuredData data =
        of(
            jsonLd("{\"@type\": \"Product\", \"datePublished\": \"2019-01-01\"}")
                + jsonLd(
                    "{\"@type\": \"ItemPage\", \"datePublished\": [\"2020-05-06\"],"
                        + " \"author\": {\"@type\": \"Person\", \"name\": \"Editor\"}}"),
            "https://a.example/");

    assertThat(data.datePublished()).contains("2020-05-06");
    assertThat(data.authors()).containsExactly("Editor");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      textBlock =
          """
          '{"@type": "Thing", "name": "a",}' => 'a'
          '{"@type": "Thing", /* a comment */ "name": "b"} // trailing' => 'b'
          '{"@type": "Thing", "name": "line↵break"}' => 'line break'
          '<![CDATA[{"@type": "Thing", "name": "c"}]]>' => 'c'
          '//<![CDATA[↵{"@type": "Thing", "name": "d"}↵//]]>' => 'd'
          '{"@type": "Thing", "name": "e"}{"@type": "Thing", "name": "f"}' => 'e,f'
          '{"@context": "https://schema.org", "@graph": {"@type": "Thing", "name": "g"}}' => 'g'
          '{"@context": {"@vocab": "https://schema.org/"}, "@type": "Thing", "name": {"@value": "h", "@language": "en"}}' => 'h'
          """)
  void readsJsonLdAsLenientlyAsPagesNeed(String block, String names) {
    StructuredData data = of(jsonLd(block.replace('↵', '\n')), "https://a.example/");

    assertThat(data.problems()).isEmpty();
    assertThat(data.items())
        .extracting(item -> item.first("name").orElseThrow())
        .containsExactly(names.split(","));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      textBlock =
          """
          https://schema.org/Product => Product
          http://schema.org/Product => Product
          https://schema.org/Product/ => Product
          HTTPS://SCHEMA.ORG/Product => Product
          schema:Product => Product
          Product => Product
          http://data-vocabulary.org/Product => http://data-vocabulary.org/Product
          https://schema.org/ => https://schema.org/
          """)
  void namesSchemaOrgTypesByTheirShortName(String type, String name) {
    assertThat(StructuredData.typeName(type)).isEqualTo(name);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiterString = " => ",
      textBlock =
          """
          '<meta itemprop=p content="meta value">' => 'meta value'
          '<img itemprop=p src="i.png">' => 'https://a.example/dir/i.png'
          '<video itemprop=p src="/v.mp4"></video>' => 'https://a.example/v.mp4'
          '<a itemprop=p href="../up">text</a>' => 'https://a.example/up'
          '<object itemprop=p data="o.swf"></object>' => 'https://a.example/dir/o.swf'
          '<data itemprop=p value="42">forty-two</data>' => '42'
          '<meter itemprop=p value="0.5">half</meter>' => '0.5'
          '<time itemprop=p datetime="2024-01-02">2 Jan</time>' => '2024-01-02'
          '<time itemprop=p>2 Jan</time>' => '2 Jan'
          '<span itemprop=p> some <b>bold</b>   text </span>' => 'some bold text'
          """)
  void takesAMicrodataValueAsTheHtmlStandardSays(String element, String value) {
    StructuredData data =
        of(
            "<div itemscope itemtype=\"https://schema.org/Thing\">" + element + "</div>",
            "https://a.example/dir/page");

    assertThat(data.items().get(0).properties()).containsExactly(Map.entry("p", List.of(value)));
  }

  @Test
  void readsMicrodataCyclesAndDeepNestingWithinBounds() {
    StringBuilder deep = new StringBuilder("<div itemscope itemtype=\"https://schema.org/Thing\">");
    for (int i = 0; i < 20; i++) {
      deep.append("<div itemprop=child itemscope><span itemprop=n>").append(i).append("</span>");
    }
    deep.append("</div>".repeat(21));
    // an item that names itself through itemref
    String cycle =
        "<div id=loop itemscope itemref=loop><span itemprop=name>self</span></div>"
            + "<div id=a itemscope itemref=b><span itemprop=x>1</span></div>"
            + "<div id=b itemprop=y itemscope itemref=a><span itemprop=z>2</span></div>";

    StructuredData data = of(deep + cycle, "https://a.example/");

    Item nested = data.items().get(0);
    assertThat(nested.properties())
        .containsEntry("child.n", List.of("0"))
        .containsEntry("child.child.child.n", List.of("2"))
        .doesNotContainKey("child.child.child.child.n");
    assertThat(nested.json()).contains("\"n\":[\"6\"]").doesNotContain("\"n\":[\"8\"]");
    assertThat(data.items().get(1).properties()).containsEntry("name", List.of("self"));
    assertThat(data.items().get(2).properties())
        .containsEntry("x", List.of("1"))
        .containsEntry("y.z", List.of("2"));
  }

  @Test
  void keepsAtMostTheBoundedNumberOfItemsAndSaysSo() {
    String items =
        "<div itemscope itemtype=\"https://schema.org/Thing\"><b itemprop=name>x</b></div>"
            .repeat(StructuredData.MAX_ITEMS + 10);

    StructuredData data = of(items, "https://a.example/");

    assertThat(data.items()).hasSize(StructuredData.MAX_ITEMS);
    assertThat(data.problems())
        .containsExactly(new Problem(-1, "266 items, over the 256 kept; the rest dropped"));
  }

  @Test
  void boundsValuesAndValuesPerKey() {
    StringBuilder metas = new StringBuilder();
    for (int i = 0; i < StructuredData.MAX_VALUES + 5; i++) {
      metas
          .append("<meta property=\"og:image\" content=\"https://a.example/")
          .append(i)
          .append("\">");
    }
    metas
        .append("<meta property=\"og:description\" content=\"")
        .append("d".repeat(5_000))
        .append("\">");

    StructuredData data = of(metas.toString(), "https://a.example/");

    assertThat(data.openGraph().get("og:image")).hasSize(StructuredData.MAX_VALUES);
    assertThat(data.openGraph().get("og:description").get(0))
        .hasSize(StructuredData.MAX_VALUE_CHARS);
  }

  @Test
  void leavesTheDocumentAsItWas() {
    Document document = Jsoup.parse(NEWS_ARTICLE + PRODUCT, "https://news.example/");
    String before = document.outerHtml();

    StructuredData.of(document);

    assertThat(document.outerHtml()).isEqualTo(before);
  }

  @Test
  void itemsOfATypeAreFoundByItsShortName() {
    StructuredData data = of(PRODUCT, "https://shop.example/");

    assertThat(data.itemsOfType("Product")).hasSize(1);
    assertThat(data.itemsOfType("Offer")).isEmpty();
    assertThat(data.items().get(1).first("missing")).isEqualTo(Optional.empty());
  }
}
