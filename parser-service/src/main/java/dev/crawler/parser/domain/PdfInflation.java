package dev.crawler.parser.domain;

import java.nio.charset.StandardCharsets;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * How many bytes a PDF's compressed streams inflate to, counted up to a limit without keeping any
 * of them: the check that turns a decompression bomb (a few kilobytes that inflate to gigabytes of
 * zeros) into a clear rejection before any parser reads it. Neither Apache PDFBox nor Tika bounds
 * what a stream inflates to: a bomb in a page's content stream is read to its end (seconds per
 * gigabyte), one in an array of content streams or in a metadata stream is inflated into the heap.
 *
 * <p>Every {@code stream … endstream} body that starts with a zlib header (the {@code FlateDecode}
 * filter, by far the most common; others are not counted) is inflated through a 64 KiB buffer, and
 * the total compared with the limit. Image streams ({@code /Subtype /Image}) are not counted: text
 * extraction never decodes them, and a scanned document's images may well inflate to more than its
 * text ever could. The cost is at most the limit's worth of inflation (about 0.3 s for 256 MiB),
 * and a millisecond or so for an ordinary document. Stateless and thread-safe.
 */
public final class PdfInflation {

  private static final byte[] STREAM = "stream".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] OBJ = "obj".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ENDOBJ = "endobj".getBytes(StandardCharsets.US_ASCII);

  /** How far before a stream its dictionary is looked for. */
  private static final int DICTIONARY_BYTES = 4_096;

  private static final int BUFFER_BYTES = 64 * 1024;

  private PdfInflation() {}

  /**
   * Whether the bytes hold at least one PDF object ({@code … obj … endobj}), as every PDF that can
   * be read does (a PDF of object streams too: the streams themselves are objects). Random bytes
   * that start like a PDF do not, and a parser searches all of them before it gives up (100 ms and
   * more for 40 KB); this answers in microseconds.
   */
  public static boolean hasObjects(byte[] pdf) {
    int end = indexOf(pdf, ENDOBJ, 0);
    return end > 0 && lastIndexOf(pdf, OBJ, 0, end) >= 0;
  }

  /** Whether the PDF's compressed streams, images aside, inflate to more than {@code limit}. */
  public static boolean exceeds(byte[] pdf, long limit) {
    return inflatedBytes(pdf, limit) > limit;
  }

  /**
   * The bytes the PDF's compressed streams (images aside) inflate to, counted until the total
   * passes {@code limit} (then a number above it).
   */
  static long inflatedBytes(byte[] pdf, long limit) {
    long total = 0;
    byte[] buffer = new byte[BUFFER_BYTES];
    Inflater inflater = new Inflater();
    try {
      for (int at = indexOf(pdf, STREAM, 0); at >= 0; at = indexOf(pdf, STREAM, at + 1)) {
        if (at >= 3 && pdf[at - 3] == 'e' && pdf[at - 2] == 'n' && pdf[at - 1] == 'd') {
          continue; // endstream
        }
        int start = at + STREAM.length;
        if (start < pdf.length && pdf[start] == '\r') {
          start++;
        }
        if (start < pdf.length && pdf[start] == '\n') {
          start++;
        }
        if (!isZlibHeader(pdf, start) || isImage(pdf, at)) {
          continue;
        }
        inflater.reset();
        inflater.setInput(pdf, start, pdf.length - start);
        try {
          while (!inflater.finished()) {
            int inflated = inflater.inflate(buffer);
            total += inflated;
            if (total > limit) {
              return total;
            }
            if (inflated == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
              break; // the stream's data ends here (or is damaged): what it gave is counted
            }
          }
        } catch (DataFormatException damaged) {
          // not deflate data after all, or damaged: PDFBox deals with it as it can
        }
        // the next stream comes after this one's compressed bytes
        at = Math.max(at, start + (int) inflater.getBytesRead() - 1);
      }
      return total;
    } finally {
      inflater.end();
    }
  }

  /** Whether the two bytes at {@code at} are a zlib header with the deflate method (RFC 1950). */
  private static boolean isZlibHeader(byte[] data, int at) {
    if (at + 1 >= data.length) {
      return false;
    }
    int cmf = data[at] & 0xFF;
    int flg = data[at + 1] & 0xFF;
    return (cmf & 0x0F) == 8 && (cmf >> 4) <= 7 && (cmf * 256 + flg) % 31 == 0;
  }

  /**
   * Whether the dictionary before the stream keyword at {@code streamAt} says it is an image: the
   * bytes since the object's {@code obj} keyword name {@code /Subtype /Image}.
   */
  private static boolean isImage(byte[] pdf, int streamAt) {
    int from = Math.max(0, streamAt - DICTIONARY_BYTES);
    int objAt = lastIndexOf(pdf, OBJ, from, streamAt);
    String dictionary =
        new String(
            pdf,
            objAt < 0 ? from : objAt,
            streamAt - (objAt < 0 ? from : objAt),
            StandardCharsets.ISO_8859_1);
    int subtype = dictionary.indexOf("/Subtype");
    return subtype >= 0 && dictionary.substring(subtype + 8).stripLeading().startsWith("/Image");
  }

  private static int indexOf(byte[] data, byte[] pattern, int from) {
    outer:
    for (int i = from; i <= data.length - pattern.length; i++) {
      if (data[i] != pattern[0]) {
        continue;
      }
      for (int j = 1; j < pattern.length; j++) {
        if (data[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static int lastIndexOf(byte[] data, byte[] pattern, int from, int before) {
    outer:
    for (int i = before - pattern.length; i >= from; i--) {
      for (int j = 0; j < pattern.length; j++) {
        if (data[i + j] != pattern[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
