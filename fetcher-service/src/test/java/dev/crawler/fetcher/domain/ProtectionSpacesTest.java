package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.crawler.fetcher.domain.ProtectionSpaces.Space;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProtectionSpacesTest {

  private static final String ORIGIN = "http://site.test:8080";
  private static final Space MD5 = new Space("Digest", "md5-area");
  private static final Space SHA256 = new Space("Digest", "sha256-area");
  private static final Space BASIC = new Space("Basic", "members");

  /**
   * Two realms accepted once each, at {@code /digest/md5/page} and {@code /digest/sha256/page},
   * their challenges' domains as given ("-" for none): the space each URL belongs to ("-" for
   * none).
   */
  @ParameterizedTest(name = "domains {0} and {1}: {2} -> {3}")
  @CsvSource({
    // no domain: each realm covers the directories it was accepted in (RFC 7617 §2.2's rule)
    "-, -, /digest/md5/page, md5-area",
    "-, -, /digest/md5/deeper/page?q=1, md5-area",
    "-, -, /digest/sha256/other, sha256-area",
    "-, -, /digest/other, -",
    "-, -, /, -",
    "-, -, /digest/md5, -",
    // a domain widens a realm to the paths it lists (RFC 7616 §3.3)
    "/digest/md5, -, /digest/md5, md5-area",
    "/digest/md5 /extra/, -, /extra/page, md5-area",
    "/digest/md5, -, /digest/md5x/page, -",
    "http://site.test:8080/archive, -, /archive/2024/page, md5-area",
    // a domain on another origin covers nothing here
    "http://other.test/, -, /elsewhere/page, -",
    "https://site.test:8080/, -, /elsewhere/page, -",
    // both realms claim the whole origin: each keeps its own directory, the longest prefix wins
    "/, /, /digest/md5/page, md5-area",
    "/, /, /digest/sha256/page, sha256-area",
    // elsewhere the realm accepted last
    "/, /, /unvisited/page, sha256-area",
  })
  void aRequestBelongsToTheSpaceWithTheLongestPrefixOfItsPath(
      String md5Domain, String sha256Domain, String path, String expected) {
    ProtectionSpaces<String> spaces = new ProtectionSpaces<>(ORIGIN);
    spaces.accepted(MD5, ORIGIN + "/digest/md5/page", domain(md5Domain), "md5 credentials");
    spaces.accepted(
        SHA256, ORIGIN + "/digest/sha256/page", domain(sha256Domain), "sha256 credentials");

    assertThat(spaces.spaceOf(ORIGIN + path).map(Space::realm).orElse("-")).isEqualTo(expected);
  }

  private static String domain(String cell) {
    return cell.equals("-") ? "" : cell;
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "/a/b/c, /a/b/",
    "/a/b/, /a/b/",
    "/page, /",
    "/, /",
    "'', /",
  })
  void theDirectoryOfAPathEndsAtItsLastSlash(String path, String directory) {
    assertThat(ProtectionSpaces.directoryOf(path)).isEqualTo(directory);
  }

  @Test
  void aDomainListsPathsOfTheRequestsOriginOnlyResolvedAgainstTheRequest() {
    assertThat(
            ProtectionSpaces.domainPaths(
                "/a  relative/ http://site.test:8080/b http://other.test/c %zz",
                ORIGIN + "/dir/page"))
        .containsExactly("/a", "/dir/relative/", "/b");
  }

  @Test
  void theNewestCredentialsOfASpaceGoAlong() {
    ProtectionSpaces<String> spaces = new ProtectionSpaces<>(ORIGIN);
    spaces.accepted(MD5, ORIGIN + "/digest/md5/1", "", "first nonce");
    spaces.accepted(MD5, ORIGIN + "/digest/md5/2", "", "stale, then a new nonce");

    assertThat(spaces.credentialsFor(ORIGIN + "/digest/md5/3")).contains("stale, then a new nonce");
  }

  @Test
  void credentialsGoToTheirOriginOnly() {
    ProtectionSpaces<String> spaces = new ProtectionSpaces<>(ORIGIN);
    spaces.accepted(BASIC, ORIGIN + "/members/1", "", "basic credentials");

    assertThat(spaces.credentialsFor(ORIGIN + "/members/2")).contains("basic credentials");
    assertThat(spaces.credentialsFor("http://site.test:8081/members/2")).isEmpty();
    assertThat(spaces.credentialsFor("https://site.test:8080/members/2")).isEmpty();
    assertThat(spaces.credentialsFor("not a url")).isEmpty();
  }

  @Test
  void aForgottenSpaceSendsNothing() {
    ProtectionSpaces<String> spaces = new ProtectionSpaces<>(ORIGIN);
    spaces.accepted(BASIC, ORIGIN + "/members/1", "", "basic credentials");

    assertThat(spaces.forget(BASIC)).isTrue();
    assertThat(spaces.credentialsFor(ORIGIN + "/members/2")).isEmpty();
    assertThat(spaces.isEmpty()).isTrue();
  }

  @Test
  void keepsAtMostMaxSpacesDroppingTheOneAcceptedLongestAgo() {
    ProtectionSpaces<String> spaces = new ProtectionSpaces<>(ORIGIN);
    for (int i = 0; i <= ProtectionSpaces.MAX_SPACES; i++) {
      spaces.accepted(new Space("Basic", "realm-" + i), ORIGIN + "/area-" + i + "/p", "", "c" + i);
    }

    assertThat(spaces.credentialsFor(ORIGIN + "/area-0/p")).isEmpty();
    assertThat(spaces.credentialsFor(ORIGIN + "/area-1/p")).contains("c1");
    assertThat(spaces.credentialsFor(ORIGIN + "/area-" + ProtectionSpaces.MAX_SPACES + "/p"))
        .contains("c" + ProtectionSpaces.MAX_SPACES);
  }

  @Test
  void schemesAreCaseInsensitive() {
    assertThat(new Space("DIGEST", "r")).isEqualTo(new Space("digest", "r"));
  }
}
