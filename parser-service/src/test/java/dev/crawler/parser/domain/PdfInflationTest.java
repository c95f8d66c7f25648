package dev.crawler.parser.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.api.Test;

class PdfInflationTest {

  private static final long MIB = 1024 * 1024;

  @Test
  void countsWhatTheStreamsInflateTo() {
    byte[] pdf = pdf(stream("<< /Length 0 /Filter /FlateDecode >>", zeros(3 * MIB)));

    assertThat(PdfInflation.inflatedBytes(pdf, 10 * MIB)).isEqualTo(3 * MIB);
    assertThat(PdfInflation.exceeds(pdf, 10 * MIB)).isFalse();
    assertThat(PdfInflation.exceeds(pdf, 2 * MIB)).isTrue();
  }

  @Test
  void stopsCountingAtTheLimit() {
    // 64 MiB of zeros deflate to ~64 KiB: a bomb in miniature
    byte[] bomb = zeros(64 * MIB);
    byte[] pdf = pdf(stream("<< /Filter /FlateDecode >>", bomb));

    assertThat(bomb.length).isLessThan(100_000);
    long counted = PdfInflation.inflatedBytes(pdf, 8 * MIB);
    assertThat(counted).isGreaterThan(8 * MIB).isLessThan(8 * MIB + 128 * 1024);
  }

  @Test
  void addsUpEveryStream() {
    byte[] pdf =
        pdf(
            stream("<< /Filter /FlateDecode >>", zeros(2 * MIB))
                + stream("<< /Filter /FlateDecode >>", zeros(2 * MIB))
                + stream("<< /Filter /FlateDecode >>", zeros(2 * MIB)));

    assertThat(PdfInflation.exceeds(pdf, 5 * MIB)).isTrue();
    assertThat(PdfInflation.exceeds(pdf, 7 * MIB)).isFalse();
  }

  @Test
  void leavesImagesOut() {
    byte[] pdf =
        pdf(
            stream(
                "<< /Type /XObject /Subtype /Image /Width 4000 /Height 4000 /Filter /FlateDecode >>",
                zeros(16 * MIB)));

    assertThat(PdfInflation.inflatedBytes(pdf, MIB)).isZero();
  }

  @Test
  void countsNothingOfStreamsThatAreNotDeflated() {
    byte[] random = new byte[100_000];
    new Random(7).nextBytes(random);
    String latin1 = new String(random, StandardCharsets.ISO_8859_1);

    assertThat(PdfInflation.inflatedBytes(pdf(stream("<< /Filter /DCTDecode >>", latin1)), MIB))
        .isZero();
    assertThat(PdfInflation.inflatedBytes(random, MIB)).isZero();
  }

  @Test
  void tellsAFileOfPdfObjectsFromRandomBytesThatStartLikeOne() {
    byte[] random = new byte[40_000];
    new Random(5).nextBytes(random);
    System.arraycopy("%PDF-1.4\n".getBytes(StandardCharsets.US_ASCII), 0, random, 0, 9);

    assertThat(PdfInflation.hasObjects(random)).isFalse();
    assertThat(PdfInflation.hasObjects(pdf(stream("<< >>", "x")))).isTrue();
    assertThat(
            PdfInflation.hasObjects("%PDF-1.4\nendobj 1 0 obj".getBytes(StandardCharsets.US_ASCII)))
        .isFalse();
  }

  private static String stream(String dictionary, byte[] data) {
    return stream(dictionary, new String(data, StandardCharsets.ISO_8859_1));
  }

  private static String stream(String dictionary, String data) {
    return "4 0 obj\n" + dictionary + "\nstream\n" + data + "\nendstream\nendobj\n";
  }

  private static byte[] pdf(String objects) {
    return ("%PDF-1.7\n" + objects + "trailer\n<< /Root 1 0 R >>\n%%EOF\n")
        .getBytes(StandardCharsets.ISO_8859_1);
  }

  /** {@code bytes} zeros, deflated as a PDF's FlateDecode stream (zlib). */
  private static byte[] zeros(long bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DeflaterOutputStream deflating =
        new DeflaterOutputStream(out, new Deflater(Deflater.BEST_COMPRESSION), 65536)) {
      byte[] chunk = new byte[65536];
      for (long written = 0; written < bytes; written += chunk.length) {
        deflating.write(chunk, 0, (int) Math.min(chunk.length, bytes - written));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
