package dev.crawler.archive.domain;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcWriter;

/**
 * One WARC file being written, each record compressed on its own (a gzip member), so a file can be
 * read record by record and a record found by its offset.
 *
 * <p>A file is written as {@code NAME.open}. {@link #sync(Map)} syncs it to the disk and writes
 * beside it {@code NAME.offsets}, the Kafka offsets after its records; once those offsets are
 * committed, {@link #finish()} renames it to {@code NAME}, its final name, and deletes the offsets.
 * So a file with its final name is complete and committed; what a crash leaves is settled by {@link
 * ArchiveDirectory#recover}. Names follow the convention of WARC writers: {@code
 * PREFIX-TIMESTAMP-SERIAL-INSTANCE.warc.gz}, the timestamp of the file's opening to the millisecond
 * (UTC), the serial counting this instance's files.
 *
 * <p>Not thread-safe.
 */
public final class ArchiveFile implements AutoCloseable {

  /** The suffix of a file being written. */
  public static final String OPEN = ".open";

  /** The suffix of the offsets beside a file synced and not yet known to be committed. */
  public static final String OFFSETS = ".offsets";

  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final Path directory;
  private final String name;
  private final Instant openedAt;
  private final FileChannel channel;
  private final ByteArrayOutputStream record = new ByteArrayOutputStream(64 * 1024);
  private final WarcWriter writer;
  private final Deflater deflater = new Deflater(Deflater.BEST_SPEED, true);
  private long records;
  private long written;
  private boolean synced;

  private ArchiveFile(Path directory, String name, Instant openedAt, FileChannel channel)
      throws IOException {
    this.directory = directory;
    this.name = name;
    this.openedAt = openedAt;
    this.channel = channel;
    // jwarc writes each record uncompressed here; it goes to the file as a gzip member of its own
    this.writer = new WarcWriter(record);
  }

  /** The name of a file: {@code PREFIX-TIMESTAMP-SERIAL-INSTANCE.warc.gz}. */
  public static String name(String prefix, Instant openedAt, long serial, String instance) {
    return String.format(
        Locale.ROOT, "%s-%s-%05d-%s.warc.gz", prefix, TIMESTAMP.format(openedAt), serial, instance);
  }

  /** Opens a new file, its {@code warcinfo} record written first. */
  public static ArchiveFile open(
      Path directory, String prefix, long serial, String instance, Instant now) throws IOException {
    Files.createDirectories(directory);
    String name = name(prefix, now, serial, instance);
    FileChannel channel =
        FileChannel.open(
            directory.resolve(name + OPEN),
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE);
    ArchiveFile file = new ArchiveFile(directory, name, now, channel);
    file.write(WarcRecords.warcinfo(name, instance, now));
    file.records = 0;
    return file;
  }

  /** Writes the records, each a gzip member of its own. */
  public void write(List<? extends WarcRecord> records) throws IOException {
    for (WarcRecord record : records) {
      write(record);
    }
  }

  /**
   * Writes one record as a gzip member of its own (RFC 1952), compressed at the fastest level:
   * jwarc's own gzip compresses at the slowest, at three times the CPU for a sixth less space.
   */
  private void write(WarcRecord warc) throws IOException {
    record.reset();
    writer.write(warc);
    byte[] bytes = record.toByteArray();
    ByteArrayOutputStream member = new ByteArrayOutputStream(bytes.length / 3 + 64);
    member.write(GZIP_HEADER);
    deflater.reset();
    deflater.setInput(bytes);
    deflater.finish();
    byte[] buffer = new byte[8192];
    while (!deflater.finished()) {
      member.write(buffer, 0, deflater.deflate(buffer));
    }
    CRC32 crc = new CRC32();
    crc.update(bytes);
    writeIntLe(member, (int) crc.getValue());
    writeIntLe(member, bytes.length);
    ByteBuffer out = ByteBuffer.wrap(member.toByteArray());
    written += out.remaining();
    while (out.hasRemaining()) {
      channel.write(out);
    }
    records++;
  }

  /** A gzip member's header: deflate, no flags, no time, the Unix operating system. */
  private static final byte[] GZIP_HEADER = {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3};

  private static void writeIntLe(ByteArrayOutputStream out, int value) {
    out.write(value);
    out.write(value >>> 8);
    out.write(value >>> 16);
    out.write(value >>> 24);
  }

  /** Bytes written so far, compressed. */
  public long size() {
    return written;
  }

  /** Records written so far, the {@code warcinfo} record aside. */
  public long records() {
    return records;
  }

  public Instant openedAt() {
    return openedAt;
  }

  /** The file's final name. */
  public String name() {
    return name;
  }

  /**
   * Syncs the file to the disk, and writes beside it the Kafka offsets after its records (the ones
   * about to be committed), synced too.
   *
   * @param offsets per {@code topic-partition}, the offset after the last record written
   */
  public void sync(Map<String, Long> offsets) throws IOException {
    channel.force(true);
    Properties properties = new Properties();
    new TreeMap<>(offsets)
        .forEach((partition, offset) -> properties.put(partition, offset.toString()));
    Path path = directory.resolve(name + OFFSETS);
    try (FileChannel out =
        FileChannel.open(
            path,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      properties.store(bytes, "the Kafka offsets after the records of " + name);
      out.write(ByteBuffer.wrap(bytes.toByteArray()));
      out.force(true);
    }
    synced = true;
  }

  /** Gives the file its final name, once the offsets written by {@link #sync} are committed. */
  public void finish() throws IOException {
    if (!synced) {
      throw new IllegalStateException(name + " is not synced");
    }
    close();
    move(directory.resolve(name + OPEN), directory.resolve(name));
    Files.deleteIfExists(directory.resolve(name + OFFSETS));
    syncDirectory(directory);
  }

  /** Closes and deletes the file: its records are to be written again elsewhere. */
  public void discard() throws IOException {
    close();
    Files.deleteIfExists(directory.resolve(name + OPEN));
    Files.deleteIfExists(directory.resolve(name + OFFSETS));
  }

  @Override
  public void close() throws IOException {
    if (channel.isOpen()) {
      channel.close();
      deflater.end();
    }
  }

  static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to);
    }
  }

  /** Makes a rename durable: the directory's entry synced (where the platform allows it). */
  static void syncDirectory(Path directory) {
    try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
      dir.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // not every file system syncs a directory; the rename stands as the platform keeps it
    }
  }
}
