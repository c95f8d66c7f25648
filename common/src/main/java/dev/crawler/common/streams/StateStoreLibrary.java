package dev.crawler.common.streams;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the state stores' native library (RocksDB's) is linked from: a copy kept between runs, when
 * a directory is named for it. RocksDB's own loader unpacks the library (15 MB) from its jar into a
 * new temporary file at every start, deleted only when the JVM exits normally: every process killed
 * outright leaves one behind. When the system property {@value #DIRECTORY_PROPERTY} names a
 * directory (the {@code crawler} script names one beside its jar), the library is unpacked there
 * once, under a name that changes with its contents, and every later process links that file: no
 * unpacking at the start, nothing left in the temporary directory. Without the property, or when
 * that directory cannot be used, RocksDB's own loader does as it always does. Thread-safe; the
 * library is linked once per process.
 */
public final class StateStoreLibrary {

  private static final Logger LOG = LoggerFactory.getLogger(StateStoreLibrary.class);

  /** The system property naming the directory the library is kept in between runs. */
  public static final String DIRECTORY_PROPERTY = "crawler.native.dir";

  private static boolean loaded;

  private StateStoreLibrary() {}

  /**
   * Links the library, from the kept copy when there is one to use, else the jar. Only the first
   * call does anything (the crawl command and each Streams service ask for it ahead); the others
   * wait for it.
   */
  public static synchronized void load() {
    if (loaded) {
      return;
    }
    loaded = true;
    link(System.getProperty(DIRECTORY_PROPERTY, ""));
  }

  /** Links the library from the copy kept in {@code directory}, or, blank or unusable, the jar. */
  static void link(String directory) {
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
    try (ZipFile jar = new ZipFile(jarOf(packed).toFile())) {
      ZipEntry entry = jar.getEntry(packed);
      if (entry == null) {
        throw new IOException("no " + packed + " in " + jar.getName());
      }
      // named after its contents: a RocksDB of another version is kept beside it
      String contents = entry.getSize() + "-" + Long.toHexString(entry.getCrc());
      Path kept = directory.resolve("rocksdb-" + contents).resolve(linked);
      if (Files.isRegularFile(kept)) {
        return kept;
      }
      Files.createDirectories(kept.getParent());
      Path written = Files.createTempFile(kept.getParent(), linked, ".tmp");
      try (InputStream in = jar.getInputStream(entry)) {
        Files.copy(in, written, StandardCopyOption.REPLACE_EXISTING);
        Files.move(
            written, kept, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(written);
      }
      LOG.debug("RocksDB's library kept in {}", kept);
      return kept;
    }
  }

  /** The jar RocksDB's classes and the library {@code packed} come from. */
  private static Path jarOf(String packed) throws IOException {
    URL resource = RocksDB.class.getClassLoader().getResource(packed);
    if (resource == null) {
      throw new IOException("no " + packed + " for this platform in RocksDB's jar");
    }
    if (!(resource.openConnection() instanceof JarURLConnection connection)) {
      throw new IOException("RocksDB's library is not in a jar: " + resource);
    }
    try {
      return Path.of(connection.getJarFileURL().toURI());
    } catch (URISyntaxException | IllegalArgumentException e) {
      throw new IOException("RocksDB's jar is not a file: " + resource, e);
    }
  }
}
