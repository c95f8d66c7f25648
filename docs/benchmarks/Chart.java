import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chart of the crawler beside crawler4j: reads {@code compare.tsv} (one row per comparison run)
 * and writes an SVG of both crawlers' median pages/s per run, as grouped bars labelled by date and
 * commit. With {@code --add DATE COMMIT FILE [TSV]} it reads a saved output of {@code compare.sh}
 * instead and appends a row of the rounds' medians to the table.
 *
 * <pre>
 * java docs/benchmarks/Chart.java docs/benchmarks/compare.tsv docs/benchmarks/compare.svg
 * java docs/benchmarks/Chart.java --add DATE COMMIT compare-output.txt [docs/benchmarks/compare.tsv]
 * </pre>
 *
 * A single file with no dependencies, run by the JDK's source launcher (Java 17).
 */
public final class Chart {

  static final String DEFAULT_TABLE = "docs/benchmarks/compare.tsv";

  static final String HEADER =
      String.join(
          "\t",
          "date",
          "commit",
          "crawler_pages_per_s",
          "crawler4j_pages_per_s",
          "crawler_cpu_ms_per_page",
          "crawler4j_cpu_ms_per_page",
          "median_ratio",
          "note");

  /** What the table holds when the source does not give a figure. */
  static final String MISSING = "-";

  /**
   * A round as {@code compare.sh} prints it: {@code round 1: crawler 843 pages/s (2.69 ms CPU/page,
   * 972 MB) crawler4j 400 pages/s (4.90 ms CPU/page, 452 MB) ratio 2.11}.
   */
  static final Pattern ROUND =
      Pattern.compile(
          "round\\s+\\d+:\\s+crawler\\s+([\\d.,]+)\\s+pages/s\\s+\\(([\\d.,]+)\\s+ms CPU/page,"
              + "\\s+[\\d.,]+\\s+MB\\)\\s+crawler4j\\s+([\\d.,]+)\\s+pages/s\\s+\\(([\\d.,]+)\\s+ms"
              + " CPU/page,\\s+[\\d.,]+\\s+MB\\)\\s+ratio\\s+([\\d.,]+)");

  private Chart() {}

  public static void main(String[] args) throws IOException {
    try {
      run(args);
    } catch (IllegalArgumentException e) {
      System.err.println("Chart: " + e.getMessage());
      System.exit(2);
    }
  }

  static void run(String[] args) throws IOException {
    if (args.length >= 4 && args.length <= 5 && args[0].equals("--add")) {
      Path table = Path.of(args.length == 5 ? args[4] : DEFAULT_TABLE);
      Run run = Run.fromCompareOutput(args[1], args[2], Path.of(args[3]));
      append(table, run);
      System.out.println("added to " + table + ": " + run.toLine());
    } else if (args.length == 2 && !args[0].startsWith("--")) {
      List<Run> runs = read(Path.of(args[0]));
      Files.writeString(Path.of(args[1]), svg(runs), StandardCharsets.UTF_8);
      System.out.println("wrote " + args[1] + " (" + runs.size() + " runs)");
    } else {
      throw new IllegalArgumentException(
          "usage: java Chart.java TABLE.tsv OUT.svg\n"
              + "       java Chart.java --add DATE COMMIT COMPARE_OUTPUT [TABLE.tsv]");
    }
  }

  /** One comparison run: a row of the table. Absent figures are empty. */
  record Run(
      String date,
      String commit,
      OptionalDouble crawlerPagesPerSecond,
      OptionalDouble crawler4jPagesPerSecond,
      OptionalDouble crawlerCpuMs,
      OptionalDouble crawler4jCpuMs,
      OptionalDouble ratio,
      String note) {

    static Run fromLine(String line, int lineNumber) {
      String[] fields = line.split("\t", -1);
      if (fields.length != 8) {
        throw new IllegalArgumentException(
            "line " + lineNumber + ": 8 tab-separated fields expected, found " + fields.length);
      }
      return new Run(
          fields[0],
          fields[1],
          number(fields[2], lineNumber),
          number(fields[3], lineNumber),
          number(fields[4], lineNumber),
          number(fields[5], lineNumber),
          number(fields[6], lineNumber),
          fields[7]);
    }

    /** The medians of the rounds in a saved output of {@code compare.sh}. */
    static Run fromCompareOutput(String date, String commit, Path output) throws IOException {
      if (date.isBlank() || commit.isBlank() || (date + commit).contains("\t")) {
        throw new IllegalArgumentException("DATE and COMMIT must be non-empty and hold no tab");
      }
      List<double[]> rounds = new ArrayList<>();
      int disturbed = 0;
      for (String line : Files.readAllLines(output, StandardCharsets.UTF_8)) {
        Matcher round = ROUND.matcher(line);
        if (round.find()) {
          rounds.add(
              new double[] {
                parse(round.group(1)),
                parse(round.group(3)),
                parse(round.group(2)),
                parse(round.group(4)),
                parse(round.group(5))
              });
          if (line.toLowerCase(Locale.ROOT).contains("disturbed")) {
            disturbed++;
          }
        }
      }
      if (rounds.isEmpty()) {
        throw new IllegalArgumentException(output + " holds no line 'round N: crawler ...'");
      }
      String note =
          String.format(
              Locale.ROOT,
              "compare.sh, %d round(s)%s",
              rounds.size(),
              disturbed == 0 ? "" : String.format(Locale.ROOT, ", %d disturbed", disturbed));
      return new Run(
          date,
          commit,
          median(rounds, 0),
          median(rounds, 1),
          median(rounds, 2),
          median(rounds, 3),
          median(rounds, 4),
          note);
    }

    String toLine() {
      return String.join(
          "\t",
          date,
          commit,
          format(crawlerPagesPerSecond, pagesPattern(crawlerPagesPerSecond)),
          format(crawler4jPagesPerSecond, pagesPattern(crawler4jPagesPerSecond)),
          format(crawlerCpuMs, "%.2f"),
          format(crawler4jCpuMs, "%.2f"),
          format(ratio, "%.2f"),
          note);
    }

    /** The label under a run's bars: its date, else "undated". */
    String dateLabel() {
      return date.equals(MISSING) ? "undated" : date;
    }

    String commitLabel() {
      return commit.equals(MISSING) ? "" : commit;
    }
  }

  static List<Run> read(Path table) throws IOException {
    List<String> lines = Files.readAllLines(table, StandardCharsets.UTF_8);
    if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
      throw new IllegalArgumentException(table + ": the first line must be the header: " + HEADER);
    }
    List<Run> runs = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      if (!lines.get(i).isBlank()) {
        runs.add(Run.fromLine(lines.get(i), i + 1));
      }
    }
    return runs;
  }

  static void append(Path table, Run run) throws IOException {
    if (!Files.exists(table)) {
      Files.writeString(table, HEADER + "\n", StandardCharsets.UTF_8);
    } else {
      read(table); // refuses a file that is not such a table
      String text = Files.readString(table, StandardCharsets.UTF_8);
      if (!text.isEmpty() && !text.endsWith("\n")) {
        Files.writeString(table, "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
      }
    }
    Files.writeString(
        table, run.toLine() + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
  }

  // ---- the SVG ----

  static final int GROUP_WIDTH = 96;
  static final int BAR_WIDTH = 30;
  static final int LEFT = 80;
  static final int RIGHT = 24;
  static final int TOP = 84;
  static final int PLOT_HEIGHT = 300;
  static final int BOTTOM = 76;
  static final String CRAWLER_COLOUR = "#2b6cb0";
  static final String CRAWLER4J_COLOUR = "#dd8452";

  static String svg(List<Run> runs) {
    int groups = Math.max(1, runs.size());
    int width = LEFT + groups * GROUP_WIDTH + RIGHT;
    int height = TOP + PLOT_HEIGHT + BOTTOM;
    double highest =
        runs.stream()
            .flatMap(
                run -> List.of(run.crawlerPagesPerSecond(), run.crawler4jPagesPerSecond()).stream())
            .filter(OptionalDouble::isPresent)
            .mapToDouble(OptionalDouble::getAsDouble)
            .max()
            .orElse(1);
    double step = tickStep(highest);
    double top = Math.ceil(highest / step) * step;
    if (top == highest) {
      top += step;
    }
    int baseline = TOP + PLOT_HEIGHT;

    StringBuilder svg = new StringBuilder();
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d"
                + " %d\" font-family=\"sans-serif\" font-size=\"11\">%n",
            width,
            height,
            width,
            height));
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n",
            width,
            height));
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"26\" font-size=\"16\" font-weight=\"bold\">%s</text>%n",
            LEFT,
            escape("The crawler beside crawler4j: pages/s per comparison run")));
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"44\" fill=\"#555555\">%s</text>%n",
            LEFT,
            escape(
                "median of the rounds of compare.sh, same site, same machine;"
                    + " under each run its date, commit and median ratio")));

    // legend
    legend(svg, LEFT, 62, CRAWLER_COLOUR, "crawler (whole process tree)");
    legend(svg, LEFT + 220, 62, CRAWLER4J_COLOUR, "crawler4j 4.4, 8 threads");

    // axis, ticks and grid lines
    for (double tick = 0; tick <= top + step / 2; tick += step) {
      double y = baseline - tick / top * PLOT_HEIGHT;
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>%n",
              LEFT,
              y,
              width - RIGHT,
              y,
              tick == 0 ? "#333333" : "#e2e2e2"));
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
              LEFT - 8,
              y + 4,
              String.format(Locale.ROOT, "%,.0f", tick)));
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333333\"/>%n",
            LEFT,
            TOP,
            LEFT,
            baseline));
    svg.append(
        String.format(
            Locale.ROOT,
            "<text transform=\"translate(22 %d) rotate(-90)\" text-anchor=\"middle\">%s</text>%n",
            TOP + PLOT_HEIGHT / 2,
            escape("pages/s (median of the rounds)")));

    // the runs
    for (int i = 0; i < runs.size(); i++) {
      Run run = runs.get(i);
      int centre = LEFT + i * GROUP_WIDTH + GROUP_WIDTH / 2;
      svg.append("<g><title>")
          .append(escape(String.join(" ", run.date(), run.commit(), run.note())))
          .append("</title>\n");
      bar(svg, centre - BAR_WIDTH - 1, baseline, top, run.crawlerPagesPerSecond(), CRAWLER_COLOUR);
      bar(svg, centre + 1, baseline, top, run.crawler4jPagesPerSecond(), CRAWLER4J_COLOUR);
      label(svg, centre, baseline + 16, run.dateLabel(), "#333333");
      label(svg, centre, baseline + 30, run.commitLabel(), "#333333");
      label(
          svg,
          centre,
          baseline + 44,
          run.ratio().isPresent()
              ? String.format(Locale.ROOT, "ratio %.2f", run.ratio().getAsDouble())
              : "",
          "#555555");
      svg.append("</g>\n");
    }
    svg.append("</svg>\n");
    return svg.toString();
  }

  private static void legend(StringBuilder svg, int x, int y, String colour, String text) {
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"10\" fill=\"%s\"/>%n",
            x,
            y - 9,
            colour));
    svg.append(
        String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", x + 20, y, escape(text)));
  }

  private static void bar(
      StringBuilder svg, int x, int baseline, double top, OptionalDouble value, String colour) {
    int centre = x + BAR_WIDTH / 2;
    if (value.isEmpty()) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#999999\""
                  + " font-size=\"9\">n/a</text>%n",
              centre,
              baseline - 4));
      return;
    }
    double height = value.getAsDouble() / top * PLOT_HEIGHT;
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"/>%n",
            x,
            baseline - height,
            BAR_WIDTH,
            height,
            colour));
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\">%.0f</text>%n",
            centre,
            baseline - height - 3,
            value.getAsDouble()));
  }

  private static void label(StringBuilder svg, int x, int y, String text, String colour) {
    if (text.isEmpty()) {
      return;
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"%s\""
                + " font-size=\"10\">%s</text>%n",
            x,
            y,
            colour,
            escape(text)));
  }

  /** A step of 1, 2 or 5 times a power of ten that gives at most eight ticks up to {@code max}. */
  static double tickStep(double max) {
    double magnitude = Math.pow(10, Math.floor(Math.log10(Math.max(max, 1))));
    for (double factor : new double[] {0.1, 0.2, 0.5, 1, 2, 5, 10}) {
      if (max / (factor * magnitude) <= 8) {
        return factor * magnitude;
      }
    }
    return 10 * magnitude;
  }

  static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;")
        .replace("'", "&apos;");
  }

  // ---- numbers ----

  static OptionalDouble number(String field, int lineNumber) {
    if (field.equals(MISSING)) {
      return OptionalDouble.empty();
    }
    try {
      return OptionalDouble.of(parse(field));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "line " + lineNumber + ": '" + field + "' is neither a number nor " + MISSING, e);
    }
  }

  /** A figure as the harness prints it, thousands separated by commas or not. */
  static double parse(String figure) {
    return Double.parseDouble(figure.replace(",", ""));
  }

  static OptionalDouble median(List<double[]> rounds, int column) {
    double[] values = rounds.stream().mapToDouble(round -> round[column]).sorted().toArray();
    int middle = values.length / 2;
    return OptionalDouble.of(
        values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2);
  }

  /** Whole pages/s as they are; a median between two rounds keeps its half. */
  static String pagesPattern(OptionalDouble value) {
    return value.isPresent() && value.getAsDouble() % 1 != 0 ? "%.1f" : "%.0f";
  }

  static String format(OptionalDouble value, String pattern) {
    return value.isPresent() ? String.format(Locale.ROOT, pattern, value.getAsDouble()) : MISSING;
  }
}
