package dev.crawler.common.hash;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SHA-1 digests, as WARC files carry them, from the native provider {@link Sha256} loads where it
 * loads (the same AWS-LC library, checked on a known answer), else from the Java runtime. Under the
 * {@code crawler} script's C1-only JIT the runtime's SHA-1 was a quarter of the archive writer's
 * CPU.
 */
public final class Sha1 {

  private static final Logger LOG = LoggerFactory.getLogger(Sha1.class);

  /** SHA-1 of "abc" (FIPS 180-2, appendix A.1). */
  private static final String ABC = "a9993e364706816aba3e25717850c26c9cd0d89d";

  private static final @Nullable Provider NATIVE = checked(Sha256.nativeProvider());

  private Sha1() {}

  /** A new SHA-1 digest (not thread-safe: one per thread). */
  public static MessageDigest newDigest() {
    try {
      return NATIVE != null
          ? MessageDigest.getInstance("SHA-1", NATIVE)
          : MessageDigest.getInstance("SHA-1");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is gone from a provider that had it", e);
    }
  }

  private static @Nullable Provider checked(@Nullable Provider provider) {
    if (provider == null) {
      return null;
    }
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-1", provider);
      String abc = HexFormat.of().formatHex(digest.digest("abc".getBytes(StandardCharsets.UTF_8)));
      if (abc.equals(ABC)) {
        return provider;
      }
      LOG.warn("SHA-1 from the Java runtime: the native provider answered {} for abc", abc);
    } catch (NoSuchAlgorithmException | RuntimeException e) {
      LOG.info("SHA-1 from the Java runtime: {}", e.toString());
    }
    return null;
  }
}
