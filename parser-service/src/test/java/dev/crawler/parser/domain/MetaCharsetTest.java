package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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
      })
  void recognizesUtf8DeclaredFirstInTheHead(String start) {
    assertThat(MetaCharset.declaredUpFront(start.getBytes(StandardCharsets.US_ASCII)))
        .contains(StandardCharsets.UTF_8);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "<!DOCTYPE html><html><head><meta charset=\"windows-1252\">",
        "<!DOCTYPE html><html><head><meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\">",
        "<!DOCTYPE html><html><head><!-- <meta charset=\"utf-8\"> --><meta charset=\"iso-8859-1\">",
        "<!DOCTYPE html><html><head><title>a</title><meta charset=\"utf-8\">",
        "<!DOCTYPE html><html><head><meta name=viewport content=x><meta charset=\"utf-8\">",
        "<!DOCTYPE html><html><header><meta charset=\"utf-8\">",
        "<!DOCTYPE html><html><head><meta charset=\"utf-8x\">",
        "<!DOCTYPE html><html><head><meta charset=\"utf-8",
        "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?><html><head><meta charset=\"utf-8\">",
        "<html title=\"<meta charset=utf-8>\"><head><meta charset=\"iso-8859-1\">",
        "text before <meta charset=\"utf-8\">",
        "",
      })
  void leavesEveryOtherPageToJsoup(String start) {
    assertThat(MetaCharset.declaredUpFront(start.getBytes(StandardCharsets.US_ASCII))).isEmpty();
  }

  @Test
  void leavesAPageWithAByteOrderMarkToJsoup() {
    byte[] bom = {
      (byte) 0xEF,
      (byte) 0xBB,
      (byte) 0xBF,
      '<',
      'm',
      'e',
      't',
      'a',
      ' ',
      'c',
      'h',
      'a',
      'r',
      's',
      'e',
      't',
      '=',
      'u',
      't',
      'f',
      '-',
      '8',
      '>'
    };

    assertThat(MetaCharset.declaredUpFront(bom)).isEmpty();
  }

  @Test
  void looksNoFurtherThanTheFirstKilobyte() {
    String late =
        "<!DOCTYPE html" + " ".repeat(MetaCharset.PRESCAN_BYTES) + "><meta charset=utf-8>";

    assertThat(MetaCharset.declaredUpFront(late.getBytes(StandardCharsets.US_ASCII))).isEmpty();
  }
}
