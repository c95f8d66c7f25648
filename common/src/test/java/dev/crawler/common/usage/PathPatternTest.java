package dev.crawler.common.usage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PathPatternTest {

  @ParameterizedTest(name = "{0} matches {1}: {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        // RFC 9309 section 2.2.2 and 2.2.3, and the TDMRep examples
        "/                         | /anything                   | true",
        "/fish                     | /fish.html                  | true",
        "/fish                     | /Fish.asp                   | false",
        "/fish/                    | /fish                       | false",
        "/*.php                    | /folder/filename.php?p=1    | true",
        "/*.php$                   | /filename.php?p=1           | false",
        "/*.php$                   | /folder/filename.php        | true",
        "/fish*.php                | /fishheads/catfish.php?p=1  | true",
        "/directory-b/images/*.jpg | /directory-b/images/a/b.jpg | true",
        "/directory-b/images/*.jpg | /directory-b/html/b.jpg     | false",
        "/this/path/exactly$       | /this/path/exactly          | true",
        "/this/path/exactly$       | /this/path/exactly/more     | false",
        "/this/*/then              | /this/x/y/then/z            | true",
        "*                         | /x                          | true",
        "/a$b                      | /a$b                        | true",
        // percent-encodings of unreserved characters are decoded; the others are not
        "/%7Euser/                 | /~user/page                 | true",
        "/~user/                   | /%7euser/page               | true",
        "/path/foo-%24             | /path/foo-%24               | true",
        "/a%2Fb                    | /a/b                        | false",
        "/a%2fb                    | /a%2Fb                      | true",
        // non-ASCII is compared in its UTF-8 percent-encoding
        "/café                     | /caf%C3%A9/menu             | true",
        "/caf%c3%a9                | /café                       | true",
      })
  void matchesAsRobotsTxtDoes(String pattern, String path, boolean expected) {
    assertThat(PathPattern.of(pattern).matches(PathPattern.normalize(path))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "/a/b?c=d     | /a/b?c=d",
        "/%41%62%7e   | /Ab~",
        "/%2f%3F      | /%2F%3F",
        "/a b         | /a%20b",
        "/é           | /%C3%A9",
        "/100%        | /100%",
        "/%zz         | /%zz",
      })
  void normalizesPathsAndPatternsAlike(String text, String expected) {
    assertThat(PathPattern.normalize(text)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} is {1} octets long")
  @CsvSource(
      delimiter = '|',
      value = {"/ | 1", "/ai-ok/ | 7", "/%7e | 2", "/é | 7", "/*.php$ | 7"})
  void countsItsLengthInOctetsOfTheNormalizedForm(String pattern, int length) {
    assertThat(PathPattern.of(pattern).length()).isEqualTo(length);
  }
}
