package dev.crawler.common.streams;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RocksDB's native library, which the state stores need. Its own loader unpacks the library (15 MB)
 * from its jar into a new temporary file at every start, deleted only when the JVM exits normally:
 * every process killed outright leaves one behind. When the system property {@value
 * #DIRECTORY_PROPERTY} names a directory (the {@code crawler} script names one beside its jar), the
 * library is unpacked there once, under a name that changes with its contents, and every later
 * process links that file: no unpacking at the start, nothing left in the temporary directory.
 * Without the property, or when that directory cannot be used, RocksDB's own loader does as it
 * always does. Thread-safe; the library is linked once per process.
 */
public final class StateStoreLibrary {

  private static final Logger LOG = LoggerFactory.getLogger(StateStoreLibrary.class);

  /** The system property naming the directory the library is kept in between runs. */
  public static final String DIRECTORY_PROPERTY = "crawler.native.dir";

  private StateStoreLibrary() {}

  /** Links the library (idempotent): from the kept copy when there is one to use, else the jar. */
  public static void load() {
    String directory = System.getProperty(DIRECTORY_PROPERTY, "");
    if (!directory.isBlank()) {
      try {
        Path kept = keep(Path.of(directory));
        RocksDB.loadLibrary(List.of(kept.getParent().toString()));
        return;
      } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
        LOG.info(
            "RocksDB's library unpacked from its jar: the copy in {} cannot be used ({})",
            directory,
            e.toString());
      }
    }
    RocksDB.loadLibrary();
  }

  /**
   * The library for this platform kept in {@code directory}: unpacked from the jar unless a copy of
   * the same contents is there. The copy is written to a file of its own and moved into place
   * whole, so a process killed while writing it leaves no half library for the next to link, and
   * processes starting together do not clash.
   *
   * @throws IOException when the jar has no library for this platform or the directory cannot be
   *     written
   */
  static Path keep(Path directory) throws IOException {
    // the name RocksDB's loader unpacks, and the one it links from a directory given to it
    String packed = Environment.getJniLibraryFileName("rocksdb");
    String linked = Environment.getJniLibraryFileName("rocksdbjni");
    URL resource = RocksDB.class.getClassLoader().getResource(packed);
    if (resource == null) {
      throw new IOException("no " + packed + " in RocksDB's jar");
    }
    URLConnection connection = resource.openConnection();
    connection.setUseCaches(false);
    Path kept = directory.resolve("rocksdb-" + fingerprint(connection)).resolve(linked);
    if (Files.isRegularFile(kept)) {
      return kept;
    }
    Files.createDirectories(kept.getParent());
    Path written = Files.createTempFile(kept.getParent(), linked, ".tmp");
    try (InputStream in = connection.getInputStream()) {
      Files.copy(in, written, StandardCopyOption.REPLACE_EXISTING);
      Files.move(
          written, kept, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(written);
    }
    LOG.debug("RocksDB's library kept in {}", kept);
    return kept;
  }

  /** What names the library's contents: its size and CRC-32 in the jar, or its size alone. */
  private static String fingerprint(URLConnection connection) throws IOException {
    @Nullable Long crc = null;
    long size = connection.getContentLengthLong();
    if (connection instanceof JarURLConnection jar && jar.getJarEntry() != null) {
      crc = jar.getJarEntry().getCrc();
      size = jar.getJarEntry().getSize();
    }
    return crc == null || crc < 0 ? Long.toString(size) : size + "-" + Long.toHexString(crc);
  }
}
