package dev.crawler.common.hash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Sha256Test {

  @Test
  void givesTheRuntimesDigestsForShortLongAndChunkedInput() throws Exception {
    Random random = new Random(7);
    for (int length : new int[] {0, 1, 55, 56, 63, 64, 65, 1_000, 100_003}) {
      byte[] input = new byte[length];
      random.nextBytes(input);
      MessageDigest ours = Sha256.newDigest();
      int half = length / 2;
      ours.update(input, 0, half);
      ours.update(input, half, length - half);

      assertThat(ours.digest())
          .as("%d bytes", length)
          .isEqualTo(MessageDigest.getInstance("SHA-256").digest(input));
    }
  }

  @Test
  void aResetDigestStartsAgain() {
    MessageDigest digest = Sha256.newDigest();
    digest.update("something else".getBytes(StandardCharsets.UTF_8));
    digest.reset();

    assertThat(HexFormat.of().formatHex(digest.digest("abc".getBytes(StandardCharsets.UTF_8))))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  }

  @Test
  void usesTheNativeProviderOnLinuxX86() {
    boolean linuxX86 =
        System.getProperty("os.name").equals("Linux")
            && System.getProperty("os.arch").equals("amd64");

    assertThat(Sha256.implementation())
        .isEqualTo(linuxX86 ? "AmazonCorrettoCryptoProvider" : "SUN");
  }
}
