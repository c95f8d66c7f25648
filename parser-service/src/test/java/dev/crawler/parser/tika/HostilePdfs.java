package dev.crawler.parser.tika;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

/** PDFs made to hurt a parser: a decompression bomb, a page tree nested deep. */
final class HostilePdfs {

  private HostilePdfs() {}

  /**
   * One page whose content stream is {@code bytes} zeros, deflated: a few hundred kilobytes that
   * inflate to as much as asked.
   */
  static byte[] bomb(long bytes) {
    return pdf(
        List.of(
            ascii("<< /Type /Catalog /Pages 2 0 R >>"),
            ascii("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
            ascii("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>"),
            stream("/Filter /FlateDecode", deflatedZeros(bytes))));
  }

  /** A page tree {@code depth} levels deep, each level one kid: a stack overflow to walk. */
  static byte[] deepPageTree(int depth) {
    List<byte[]> objects = new ArrayList<>(depth + 3);
    objects.add(ascii("<< /Type /Catalog /Pages 2 0 R >>"));
    for (int i = 0; i < depth; i++) {
      int number = 2 + i;
      String parent = i == 0 ? "" : "/Parent " + (number - 1) + " 0 R ";
      objects.add(
          ascii("<< /Type /Pages " + parent + "/Kids [" + (number + 1) + " 0 R] /Count 1 >>"));
    }
    int leaf = 2 + depth;
    objects.add(
        ascii(
            "<< /Type /Page /Parent "
                + (leaf - 1)
                + " 0 R /MediaBox [0 0 612 792] /Contents "
                + (leaf + 1)
                + " 0 R >>"));
    objects.add(stream("", ascii("BT /F1 12 Tf 72 700 Td (deep) Tj ET")));
    return pdf(objects);
  }

  private static byte[] stream(String dictionary, byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(ascii("<< /Length " + data.length + " " + dictionary + " >>\nstream\n"));
    out.writeBytes(data);
    out.writeBytes(ascii("\nendstream"));
    return out.toByteArray();
  }

  /** A PDF of these objects (numbered from 1, the first the catalog), with its cross-references. */
  private static byte[] pdf(List<byte[]> objects) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(ascii("%PDF-1.7\n"));
    List<Integer> offsets = new ArrayList<>();
    for (int i = 0; i < objects.size(); i++) {
      offsets.add(out.size());
      out.writeBytes(ascii((i + 1) + " 0 obj\n"));
      out.writeBytes(objects.get(i));
      out.writeBytes(ascii("\nendobj\n"));
    }
    int xref = out.size();
    StringBuilder table = new StringBuilder();
    table.append("xref\n0 ").append(objects.size() + 1).append("\n0000000000 65535 f \n");
    for (int offset : offsets) {
      table.append(String.format(Locale.ROOT, "%010d 00000 n \n", offset));
    }
    table
        .append("trailer\n<< /Size ")
        .append(objects.size() + 1)
        .append(" /Root 1 0 R >>\nstartxref\n")
        .append(xref)
        .append("\n%%EOF\n");
    out.writeBytes(ascii(table.toString()));
    return out.toByteArray();
  }

  private static byte[] deflatedZeros(long bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DeflaterOutputStream deflating =
        new DeflaterOutputStream(out, new Deflater(Deflater.BEST_COMPRESSION), 1 << 16)) {
      byte[] chunk = new byte[1 << 20];
      for (long written = 0; written < bytes; written += chunk.length) {
        deflating.write(chunk, 0, (int) Math.min(chunk.length, bytes - written));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }
}
