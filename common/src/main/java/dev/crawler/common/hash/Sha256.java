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
 * SHA-256 digests from the cheapest implementation the process has: the Amazon Corretto Crypto
 * Provider's native one (AWS-LC, using the processor's SHA instructions) where its library loads
 * (Linux on x86-64), else the Java runtime's. Both give the same digests. The native one hashes
 * ~1.3 GB/s from the first call; the runtime's reaches that only once C2 has compiled it with its
 * intrinsics, and under the {@code crawler} script's C1-only JIT stays at ~120 MB/s, where hashing
 * the pages' text was a fifth of the parser's thread.
 *
 * <p>The provider is used for this digest only, never installed: TLS and everything else keep the
 * runtime's providers. Loading it takes ~0.3 s once per process (it unpacks and tests its library);
 * {@link #implementation()} does that at start-up rather than on the first page. The system
 * property {@value #NATIVE_PROPERTY}{@code =false} keeps the runtime's: the {@code crawler} script
 * sets it on the run that writes the class data archive, as the JVM (17) fails writing one after
 * loading the provider's signed classes.
 */
public final class Sha256 {

  private static final Logger LOG = LoggerFactory.getLogger(Sha256.class);

  /** SHA-256 of "abc" (FIPS 180-2, appendix B.1): what a provider must answer before it is used. */
  private static final String ABC =
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

  /** Set to {@code false}, the runtime's implementation is used whatever the platform. */
  public static final String NATIVE_PROPERTY = "crawler.sha256.native";

  private static final String NATIVE_PROVIDER =
      "com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider";

  private static final @Nullable Provider NATIVE = loadNative();

  private Sha256() {}

  /** A new SHA-256 digest (not thread-safe: one per thread). */
  public static MessageDigest newDigest() {
    try {
      return NATIVE != null
          ? MessageDigest.getInstance("SHA-256", NATIVE)
          : MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is gone from a provider that had it", e);
    }
  }

  /** The native provider, when it loaded: {@link Sha1} takes its digests from it too. */
  static @Nullable Provider nativeProvider() {
    return NATIVE;
  }

  /** Which implementation {@link #newDigest()} gives: the provider's name. */
  public static String implementation() {
    return newDigest().getProvider().getName();
  }

  private static @Nullable Provider loadNative() {
    if (!Boolean.parseBoolean(System.getProperty(NATIVE_PROPERTY, "true"))) {
      LOG.debug("SHA-256 from the Java runtime: {}=false", NATIVE_PROPERTY);
      return null;
    }
    Provider provider;
    try {
      // by name: a process without the provider's jar (or its classes) falls back to the runtime's
      Class<?> type = Class.forName(NATIVE_PROVIDER);
      provider = (Provider) type.getField("INSTANCE").get(null);
      Object error = type.getMethod("getLoadingError").invoke(provider);
      if (error != null) {
        LOG.info("SHA-256 from the Java runtime: the native provider did not load ({})", error);
        return null;
      }
      MessageDigest digest = MessageDigest.getInstance("SHA-256", provider);
      String abc = HexFormat.of().formatHex(digest.digest("abc".getBytes(StandardCharsets.UTF_8)));
      if (!abc.equals(ABC)) {
        LOG.warn("SHA-256 from the Java runtime: the native provider answered {} for abc", abc);
        return null;
      }
    } catch (ReflectiveOperationException
        | NoSuchAlgorithmException
        | LinkageError
        | RuntimeException e) {
      LOG.info(
          "SHA-256 from the Java runtime: the native provider did not load ({})", e.toString());
      return null;
    }
    LOG.debug("SHA-256 from {}", provider.getName());
    return provider;
  }
}
