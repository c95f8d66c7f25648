package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MetaCharsetTest {

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "<meta charset=\"utf-8\">",
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>x</title>",
        "  <!doctype html><HTML><HEAD><META CHARSET='UTF-8'/>",
        "<html class=a><head ><meta  charset = utf-8 >",
        // javadoc: the title first, then http-equiv
        "<!DOCTYPE HTML>\n<html>\n<head>\n<title>jdk.jcmd (Java SE 17 &amp; JDK 17)</title>\n"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            + "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\">",
        // DocBook: an XML declaration, then http-equiv
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<!DOCTYPE html PUBLIC"
            + " \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"x.dtd\"><html"
            + " xmlns=\"http://www.w3.org/1999/xhtml\"><head><meta http-equiv=\"Content-Type\""
            + " content=\"text/html; charset=UTF-8\" /><title>CREATE OPERATOR FAMILY</title>",
        "<!DOCTYPE html><html><head><title>a</title><meta charset=\"utf-8\">",
        "<!-- <meta charset=\"utf-8\"> --><meta charset='utf-8'>",
        "text before <meta charset=\"utf-8\">",
        "<!DOCTYPE html><html><head><title>No declaration at all</title></head><body>é</body>",
        "",
      })
  void recognizesWhatJsoupDecodesAsUtf8(String start) throws IOException {
    byte[] body = start.getBytes(StandardCharsets.UTF_8);

    assertThat(MetaCharset.certainlyUtf8(body)).contains(StandardCharsets.UTF_8);
    assertThat(jsoupsCharset(body)).isEqualTo(StandardCharsets.UTF_8);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "<!DOCTYPE html><html><head><meta charset=\"windows-1252\">",
        "<!DOCTYPE html><html><head><!-- <meta charset=\"utf-8\"> --><meta charset=\"iso-8859-1\">",
        "<!DOCTYPE html><html><head><meta http-equiv=Content-Type content=\"text/html;"
            + " charset=iso-8859-1\">",
        "<!DOCTYPE html><html><head><meta http-equiv=Content-Type content=\"text/html;"
            + " &#99;harset=iso-8859-1\">",
        "<!DOCTYPE html><html><head><meta charset=\"utf-8x\">",
        "<!DOCTYPE html><html><head><meta charset=\"utf-8",
        "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><html><head><title>x</title>",
        "<?xml version=\"1.0\" encoding=\"&#105;so-8859-1\"?><html>",
        "<html title=\"<meta charset=utf-8>\"><head><meta charset=\"iso-8859-1\">",
        "<html><head><title>Which encoding to choose</title><meta charset=utf-8>",
        "<html><head><meta charset=utf8>",
      })
  void leavesEveryOtherPageToJsoup(String start) {
    assertThat(MetaCharset.certainlyUtf8(start.getBytes(StandardCharsets.UTF_8))).isEmpty();
  }

  @Test
  void leavesAPageWithAByteOrderMarkToJsoup() {
    byte[] page = "<meta charset=utf-8>".getBytes(StandardCharsets.US_ASCII);
    for (byte[] bom :
        List.of(
            new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
            new byte[] {(byte) 0xFE, (byte) 0xFF},
            new byte[] {(byte) 0xFF, (byte) 0xFE})) {
      byte[] body = new byte[bom.length + page.length];
      System.arraycopy(bom, 0, body, 0, bom.length);
      System.arraycopy(page, 0, body, bom.length, page.length);

      assertThat(MetaCharset.certainlyUtf8(body)).isEmpty();
    }
  }

  @Test
  void readsOnlyWhatJsoupReads() {
    String padding = "<p>" + "x".repeat(MetaCharset.SNIFF_BYTES) + "</p>";
    byte[] late =
        ("<html><head>" + padding + "<meta charset=iso-8859-1>")
            .getBytes(StandardCharsets.US_ASCII);
    byte[] nearTheEnd =
        ("<html><head><title>"
                + "x".repeat(MetaCharset.SNIFF_BYTES - 60)
                + "</title><meta charset=iso-8859-1>")
            .getBytes(StandardCharsets.US_ASCII);

    assertThat(MetaCharset.certainlyUtf8(late)).contains(StandardCharsets.UTF_8);
    assertThat(MetaCharset.certainlyUtf8(nearTheEnd)).isEmpty();
  }

  /**
   * The oracle: on 20,000 generated page starts (declarations of every kind in every place, in
   * comments, titles and attributes, with character references, cut anywhere, before and after
   * jsoup's limit), whenever a page is recognized jsoup's own detection decodes it as UTF-8 too.
   */
  @Test
  void neverDisagreesWithJsoup() throws IOException {
    Random random = new Random(7);
    int recognized = 0;
    int pages = 20_000;
    for (int n = 0; n < pages; n++) {
      byte[] body = generatedPage(random);
      if (MetaCharset.certainlyUtf8(body).isPresent()) {
        recognized++;
        assertThat(jsoupsCharset(body))
            .as("%s", new String(body, StandardCharsets.ISO_8859_1))
            .isEqualTo(StandardCharsets.UTF_8);
      }
    }
    // the test is worth something only if both answers are common
    assertThat(recognized).isBetween(pages / 10, pages * 9 / 10);
  }

  private static final List<String> PARTS =
      List.of(
          "<!DOCTYPE html>",
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
          "<?xml version='1.0' encoding='iso-8859-1'?>",
          "<?xml version=\"1.0\" encoding=\"&#105;so-8859-1\"?>",
          "<html>",
          "<head>",
          "<title>a page</title>",
          "<title>the encoding of a page</title>",
          "<title>charset: windows-1252</title>",
          "<meta charset=\"utf-8\">",
          "<meta charset=UTF-8>",
          "<meta charset='utf-8'/>",
          "<meta charset=\"iso-8859-1\">",
          "<meta charset=\"windows-1251\">",
          "<meta charset=\"shift_jis\">",
          "<meta charset=\"bogus\">",
          "<meta charset>",
          "<meta charset=\"utf8\">",
          "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=UTF-8\">",
          "<meta http-equiv=\"content-type\" content=\"text/html;charset=iso-8859-1\">",
          "<meta http-equiv=\"Content-Type\" content=\"text/html; &#99;harset=windows-1252\">",
          "<meta http-equiv=\"Content-Type\" content=\"text/html; charset=&#117;tf-8\">",
          "<meta HTTP-EQUIV=Content-Type CONTENT='text/html; CHARSET=KOI8-R'>",
          "<meta name=\"description\" content=\"charset=iso-8859-2\">",
          "<meta name=\"viewport\" content=\"width=device-width\">",
          "<!-- <meta charset=\"iso-8859-1\"> -->",
          "<!-- <meta charset=\"utf-8\"> -->",
          "<script>var charset = 'iso-8859-1';</script>",
          "<link rel=stylesheet href=a.css>",
          "<body><p>é ü — text</p>",
          "<p>" + "words ".repeat(400) + "</p>",
          "<p>" + "x".repeat(2000) + "</p>");

  private static byte[] generatedPage(Random random) {
    StringBuilder page = new StringBuilder();
    int parts = 1 + random.nextInt(8);
    for (int i = 0; i < parts; i++) {
      page.append(PARTS.get(random.nextInt(PARTS.size())));
      if (random.nextBoolean()) {
        page.append('\n');
      }
    }
    String text = page.toString();
    if (random.nextInt(4) == 0) {
      text = text.substring(0, random.nextInt(text.length() + 1)); // cut anywhere
    }
    Charset encoding = random.nextBoolean() ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1;
    return text.getBytes(encoding);
  }

  private static Charset jsoupsCharset(byte[] body) throws IOException {
    return Jsoup.parse(new ByteArrayInputStream(body), null, "http://127.0.0.1/").charset();
  }
}
