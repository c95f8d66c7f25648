package dev.crawler.frontier.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UrlTrapsTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "http://a.example/cal/2026-11-23,            http://a.example/cal/#-#-#",
    "http://a.example/news/2019/03/14/4711.html, http://a.example/news/#/#/#/#.html",
    "http://a.example/2019/03/,                  http://a.example/#/#/",
    "http://a.example/events/14.03.2019,         http://a.example/events/#.#.#",
    "http://a.example/day/20190314,              http://a.example/day/#",
    "http://a.example/cal?year=2019&month=3,     http://a.example/cal?year=#&month=#",
    "http://a.example/list?page=2,               ",
    "http://a.example/article/12345,             ",
    "http://a.example/v1.2/docs,                 ",
    "http://a.example/2019/,                     ",
  })
  void aDatedUrlHasTheTemplateOfItsNumbers(String url, String template) {
    assertThat(UrlTraps.datedTemplate(url).orElse(null)).isEqualTo(template);
  }

  @ParameterizedTest(name = "{0} with max {1} -> {2}")
  @CsvSource({
    "a/a,           2, ",
    "a/a/a,         2, a 3",
    "a/a/a,         3, ",
    "b/a/a/a/a/c,   2, a 4",
    "x/y/x/y/x/y,   2, x/y 3",
    "a/b/a/c/a/d,   2, ",
    "a/a/a,         0, a 3",
    "a/b,           0, ",
  })
  void findsTheRunRepeatedMostOftenInARow(String path, int max, String expected) {
    String found =
        UrlTraps.repeatedRun(List.of(path.split("/")), max)
            .map(r -> r.run() + " " + r.times())
            .orElse(null);

    assertThat(found).isEqualTo(expected);
  }
}
