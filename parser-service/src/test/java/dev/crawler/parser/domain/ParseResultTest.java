package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.events.UrlKind;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParseResultTest {

  private static final String PAGE = "http://a.example/page";
  private static final List<Link> LINKS =
      List.of(
          new Link("http://a.example/x", UrlKind.LINK, Optional.of("X")),
          new Link("http://b.example/f", UrlKind.FRAME, Optional.empty()));

  @ParameterizedTest(name = "canonical {0}, nofollow {1}, obey {2} -> {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # canonical               | nofollow | obey robots meta | discoveries (url kind depth)
                                    | false    | true             | http://a.example/x LINK 4, http://b.example/f FRAME 4
          http://a.example/page     | false    | true             | http://a.example/x LINK 4, http://b.example/f FRAME 4
                                    | true     | true             |
                                    | true     | false            | http://a.example/x LINK 4, http://b.example/f FRAME 4
          http://a.example/original | false    | true             | http://a.example/original CANONICAL 3
          http://a.example/original | true     | true             | http://a.example/original CANONICAL 3
          """)
  void aPageMakesKnownItsLinksOneDeeperOrOnlyItsCanonicalAtItsOwnDepth(
      String canonical, boolean nofollow, boolean obeyRobotsMeta, String expected) {
    ParseResult.Parsed parsed = parsed(Optional.ofNullable(canonical), nofollow);

    List<String> discoveries =
        parsed.discoveries(3, obeyRobotsMeta).stream()
            .map(d -> d.url() + " " + d.kind() + " " + d.depth())
            .toList();

    assertThat(discoveries)
        .isEqualTo(expected == null ? List.of() : Arrays.asList(expected.split(", ")));
  }

  @ParameterizedTest(name = "nofollow {0}, obey {1} -> {2}")
  @CsvSource({
    "true, true, true",
    "true, false, false",
    "false, true, false",
    "false, false, false"
  })
  void nofollowIsObeyedOnlyWhenRobotsMetaIs(
      boolean nofollow, boolean obeyRobotsMeta, boolean obeyed) {
    assertThat(parsed(Optional.empty(), nofollow).isNofollowObeyed(obeyRobotsMeta))
        .isEqualTo(obeyed);
  }

  @ParameterizedTest
  @CsvSource({
    "'', false",
    "http://a.example/page, false",
    "http://a.example/other, true",
    "https://a.example/page, true"
  })
  void aPageIsNonCanonicalWhenItNamesAnotherUrl(String canonical, boolean nonCanonical) {
    assertThat(parsed(Optional.of(canonical).filter(c -> !c.isEmpty()), false).isNonCanonical())
        .isEqualTo(nonCanonical);
  }

  @Test
  void anAnchorTravelsWithItsLink() {
    assertThat(parsed(Optional.empty(), false).discoveries(0, true))
        .extracting(Discovery::anchor)
        .containsExactly(Optional.of("X"), Optional.empty());
  }

  private static ParseResult.Parsed parsed(Optional<String> canonical, boolean nofollow) {
    return new ParseResult.Parsed(
        PAGE,
        "text/html",
        "UTF-8",
        Optional.empty(),
        Optional.empty(),
        ParseResult.Language.UNKNOWN,
        new byte[0],
        canonical,
        false,
        nofollow,
        LINKS,
        2,
        DroppedLinks.NONE,
        "",
        Optional.empty(),
        Optional.empty(),
        ParseResult.FileFacts.NONE,
        ParseResult.Extras.NONE);
  }
}
