package dev.crawler.fetcher.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class ContentDecodingTest {

  private static final byte[] TEXT =
      "<html>hello, decoded world</html>".getBytes(StandardCharsets.UTF_8);

  @Test
  void leavesAnUncodedBodyAsItIs() {
    assertThat(ContentDecoding.decode(null, TEXT, 100))
        .isInstanceOfSatisfying(
            ContentDecoding.Body.class, body -> assertThat(body.bytes()).isEqualTo(TEXT));
    assertThat(ContentDecoding.decode("identity", TEXT, 100))
        .isInstanceOfSatisfying(
            ContentDecoding.Body.class, body -> assertThat(body.bytes()).isEqualTo(TEXT));
  }

  @Test
  void decodesGzip() throws IOException {
    assertThat(ContentDecoding.decode("gzip", gzip(TEXT), 100))
        .isInstanceOfSatisfying(
            ContentDecoding.Body.class, body -> assertThat(body.bytes()).isEqualTo(TEXT));
  }

  @Test
  void decodesZlibAndRawDeflate() throws IOException {
    assertThat(ContentDecoding.decode("deflate", deflate(TEXT, false), 100))
        .isInstanceOfSatisfying(
            ContentDecoding.Body.class, body -> assertThat(body.bytes()).isEqualTo(TEXT));
    assertThat(ContentDecoding.decode("deflate", deflate(TEXT, true), 100))
        .isInstanceOfSatisfying(
            ContentDecoding.Body.class, body -> assertThat(body.bytes()).isEqualTo(TEXT));
  }

  @Test
  void decodesBrotli() {
    byte[] brotliX = {
      0x0b, 0x00, (byte) 0x80, 0x58, 0x03
    }; // "X", from the Brotli reference test data

    assertThat(ContentDecoding.decode("br", brotliX, 100))
        .isInstanceOfSatisfying(
            ContentDecoding.Body.class, body -> assertThat(body.bytes()).containsExactly('X'));
  }

  @Test
  void undoesSeveralCodingsFromTheLast() throws IOException {
    assertThat(ContentDecoding.decode("deflate, gzip", gzip(deflate(TEXT, false)), 100))
        .isInstanceOfSatisfying(
            ContentDecoding.Body.class, body -> assertThat(body.bytes()).isEqualTo(TEXT));
  }

  @Test
  void stopsACompressionBombAtTheLimit() throws IOException {
    byte[] bomb = gzip(new byte[50 * 1024 * 1024]); // 50 MiB of zeros in about 50 KiB

    assertThat(bomb.length).isLessThan(100 * 1024);
    assertThat(ContentDecoding.decode("gzip", bomb, 1024 * 1024))
        .isInstanceOf(ContentDecoding.TooLarge.class);
  }

  @Test
  void saysWhenABodyIsNotWhatItsCodingClaims() {
    assertThat(ContentDecoding.decode("gzip", TEXT, 100))
        .isInstanceOf(ContentDecoding.Broken.class);
    assertThat(ContentDecoding.decode("br", TEXT, 100)).isInstanceOf(ContentDecoding.Broken.class);
    assertThat(ContentDecoding.decode("compress", TEXT, 100))
        .isInstanceOfSatisfying(
            ContentDecoding.Broken.class,
            broken -> assertThat(broken.detail()).contains("compress"));
  }

  @Test
  void acceptsAnEmptyCodedBody() {
    assertThat(ContentDecoding.decode("gzip", new byte[0], 100))
        .isInstanceOf(ContentDecoding.Body.class);
  }

  static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(bytes);
    }
    return out.toByteArray();
  }

  static byte[] deflate(byte[] bytes, boolean raw) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DeflaterOutputStream deflate =
        new DeflaterOutputStream(out, new Deflater(Deflater.DEFAULT_COMPRESSION, raw))) {
      deflate.write(bytes);
    }
    return out.toByteArray();
  }
}
