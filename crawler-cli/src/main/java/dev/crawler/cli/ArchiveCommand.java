package dev.crawler.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.WarcCaptureRecord;
import org.netpreserve.jwarc.WarcReader;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcResponse;
import org.netpreserve.jwarc.WarcRevisit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code crawler archive ls|show URL --warc DIR}: what the archive holds for a URL, read from the
 * closed WARC files of a directory (those {@code crawler crawl --warc DIR} or the archive writers
 * wrote).
 */
@Command(
    name = "archive",
    mixinStandardHelpOptions = true,
    description = "Read the WARC archive.",
    subcommands = {ArchiveCommand.Ls.class, ArchiveCommand.Show.class})
public final class ArchiveCommand {

  /** The directory and the URL both subcommands take. */
  static final class Target {
    @Parameters(index = "0", paramLabel = "URL", description = "The URL, as it was requested.")
    String url;

    @Option(
        names = "--warc",
        paramLabel = "DIR",
        required = true,
        description = "The directory of the WARC files.")
    Path directory;

    List<Path> files() throws IOException {
      if (!Files.isDirectory(directory)) {
        throw new IllegalArgumentException("--warc " + directory + ": no such directory");
      }
      try (Stream<Path> listed = Files.list(directory)) {
        return listed.filter(file -> file.toString().endsWith(".warc.gz")).sorted().toList();
      }
    }
  }

  /** {@code crawler archive ls URL --warc DIR}. */
  @Command(
      name = "ls",
      mixinStandardHelpOptions = true,
      description = "List the records of a URL: file and offset, type, date, status, record id.")
  static final class Ls implements Callable<Integer> {

    @Mixin Target target;

    @Override
    public Integer call() throws IOException {
      int found = 0;
      for (Path file : target.files()) {
        try (WarcReader reader = new WarcReader(file)) {
          for (WarcRecord record = reader.next().orElse(null);
              record != null;
              record = reader.next().orElse(null)) {
            if (record instanceof WarcCaptureRecord capture
                && capture.target().equals(target.url)) {
              found++;
              System.out.printf(
                  Locale.ROOT,
                  "%s:%d  %-8s %s  %s  %s%n",
                  file.getFileName(),
                  reader.position(),
                  record.type(),
                  record.date(),
                  status(record),
                  record.id());
            }
          }
        }
      }
      if (found == 0) {
        System.err.println("crawler: the archive holds nothing for " + target.url);
        return 1;
      }
      return 0;
    }
  }

  /** {@code crawler archive show URL --warc DIR}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description =
          "Print the URL's last archived response: its status line and fields as received, then its body (decoded from its content coding).")
  static final class Show implements Callable<Integer> {

    @Mixin Target target;

    @Option(names = "--raw", description = "Print the body as received, still content-coded.")
    boolean raw;

    @Override
    public Integer call() throws IOException {
      Path lastFile = null;
      long lastOffset = -1;
      for (Path file : target.files()) {
        try (WarcReader reader = new WarcReader(file)) {
          for (WarcRecord record = reader.next().orElse(null);
              record != null;
              record = reader.next().orElse(null)) {
            if (record instanceof WarcResponse response && response.target().equals(target.url)) {
              lastFile = file;
              lastOffset = reader.position();
            }
          }
        }
      }
      if (lastFile == null) {
        System.err.println("crawler: the archive holds no response for " + target.url);
        return 1;
      }
      try (WarcReader reader = new WarcReader(lastFile)) {
        reader.position(lastOffset);
        WarcResponse response = (WarcResponse) reader.next().orElseThrow();
        HttpResponse http = response.http();
        PrintStream out = System.out;
        out.write(http.serializeHeader());
        try (var body = raw ? http.body().stream() : Channels.newInputStream(http.bodyDecoded())) {
          body.transferTo(out);
        }
        out.flush();
      }
      return 0;
    }
  }

  private static String status(WarcRecord record) throws IOException {
    if (record instanceof WarcResponse response) {
      return Integer.toString(response.http().status());
    }
    if (record instanceof WarcRevisit revisit) {
      return revisit.http().status() + " (revisit)";
    }
    return "-";
  }
}
