package dev.crawler.cli.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.crawler.cli.ClusterOptions;
import dev.crawler.common.control.ControlTopic;
import dev.crawler.common.control.OperatorHolds;
import dev.crawler.common.kafka.TopicReader;
import dev.crawler.events.OriginStats;
import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.Topics;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code crawler status}: where a running crawl stands. Reads the compacted {@code crawl.stats}
 * topic the frontier publishes (per origin: queued, in flight, paused, done by outcome) from its
 * start, and the consumer groups' committed offsets on the crawl's topics; prints per site (and
 * with {@code --origins} per origin) the counts, the throughput over the last minute, and each
 * group's lag. Commits nothing.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description =
        "Show where a running crawl stands: per site/origin counts, throughput and consumer lag.")
public final class StatusCommand implements Callable<Integer> {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Option(
      names = "--origins",
      paramLabel = "N",
      defaultValue = "0",
      description = "Also list the N origins with the longest queues (default: none).")
  int origins;

  @Option(names = "--json", description = "Print one JSON object instead of tables.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    Topics topics = cluster.topics();
    CrawlStatus status = read(topics.stats());
    List<OperatorHolds.Hold> holds =
        ControlTopic.holds(cluster.kafkaProperties(), topics).inForce();
    Instant now = Instant.now();
    List<ConsumerLag.Row> lag;
    try (Admin admin = Admin.create(cluster.kafkaProperties())) {
      Set<String> names = topics.all().stream().map(TopicSpec::name).collect(Collectors.toSet());
      lag = ConsumerLag.of(admin, names);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Map<String, Object> report = new LinkedHashMap<>();
      report.put("updatedAt", status.updatedAt().map(Instant::toString).orElse(null));
      report.put("total", status.total(now));
      report.put("sites", status.sites(now));
      report.put("origins", status.origins(now).stream().limit(origins).toList());
      report.put("lag", lag);
      report.put("holds", holds.stream().map(StatusCommand::describe).toList());
      out.println(JSON.writeValueAsString(report));
      out.flush();
      return 0;
    }
    if (status.updatedAt().isEmpty()) {
      out.println(topics.stats().name() + " holds no figures yet: is the frontier running?");
    } else {
      out.println(
          "figures of "
              + status.updatedAt().get()
              + " ("
              + Duration.between(status.updatedAt().get(), now).toSeconds()
              + " s ago); throughput over the last "
              + CrawlStatus.WINDOW.toSeconds()
              + " s");
      out.println();
      List<CrawlStatus.Row> sites = new ArrayList<>(status.sites(now));
      sites.add(status.total(now));
      print(out, "SITE", sites);
      if (origins > 0) {
        out.println();
        print(out, "ORIGIN", status.origins(now).stream().limit(origins).toList());
      }
    }
    if (!holds.isEmpty()) {
      out.println();
      out.println("HELD BY OPERATORS");
      holds.forEach(hold -> out.println(describe(hold)));
    }
    out.println();
    out.printf(Locale.ROOT, "%-32s %-28s %10s%n", "CONSUMER GROUP", "TOPIC", "LAG");
    for (ConsumerLag.Row row : lag) {
      out.printf(Locale.ROOT, "%-32s %-28s %10d%n", row.group(), row.topic(), row.lag());
    }
    out.flush();
    return 0;
  }

  /**
   * A table: name, origins, queued, in flight, paused, done, pages/s, budget use, then one column
   * per outcome seen.
   */
  private static void print(PrintWriter out, String heading, List<CrawlStatus.Row> rows) {
    Set<String> outcomes = new LinkedHashSet<>();
    rows.forEach(row -> outcomes.addAll(row.done().keySet()));
    int width =
        Math.max(
            heading.length(), rows.stream().mapToInt(row -> row.name().length()).max().orElse(0));
    StringBuilder header =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%-" + width + "s %7s %8s %9s %6s %9s %8s %15s",
                heading,
                "ORIGINS",
                "QUEUED",
                "IN FLIGHT",
                "PAUSED",
                "DONE",
                "PAGES/S",
                "ADMITTED/BUDGET"));
    outcomes.forEach(outcome -> header.append(' ').append(outcome));
    out.println(header);
    for (CrawlStatus.Row row : rows) {
      StringBuilder line =
          new StringBuilder(
              String.format(
                  Locale.ROOT,
                  "%-" + width + "s %7d %8d %9d %6d %9d %8.1f %15s",
                  row.name(),
                  row.origins(),
                  row.queued(),
                  row.inFlight(),
                  row.paused(),
                  row.doneTotal(),
                  row.pagesPerSecond(),
                  budget(row)));
      outcomes.forEach(
          outcome ->
              line.append(' ')
                  .append(
                      String.format(
                          Locale.ROOT,
                          "%" + outcome.length() + "d",
                          row.done().getOrDefault(outcome, 0L))));
      out.println(line);
    }
  }

  /** Admitted URLs and the budget, {@code 412/1000}, or {@code 412/-} without a budget. */
  static String budget(CrawlStatus.Row row) {
    return row.admitted() + "/" + (row.budget() < 0 ? "-" : Long.toString(row.budget()));
  }

  /** A hold in words: {@code paused http://a.example by alice@ops-1 at 2026-…Z}. */
  static String describe(OperatorHolds.Hold hold) {
    String what =
        switch (hold.kind()) {
          case PAUSE -> "paused";
          case BLOCK -> hold.value() == 1 ? "blocked (documents deleted)" : "blocked";
          case DELAY -> "delay " + hold.value() + " ms";
        };
    return what
        + " "
        + hold.target()
        + " by "
        + hold.issuedBy()
        + " at "
        + Instant.ofEpochMilli(hold.issuedAt());
  }

  private CrawlStatus read(TopicSpec<String, OriginStats> topic) throws IOException {
    CrawlStatus status = new CrawlStatus();
    TopicReader.Result read =
        TopicReader.read(
            cluster.readerProperties(),
            topic,
            ClusterOptions.READ_BOUND,
            record -> {
              if (record.key() != null) {
                status.add(record.key(), record.value());
              }
              return true;
            },
            problem ->
                spec.commandLine().getErr().println("crawler: skipping a record: " + problem));
    if (!read.isComplete()) {
      spec.commandLine()
          .getErr()
          .println(
              "crawler: gave up reading "
                  + topic.name()
                  + " with "
                  + read.recordsLeft()
                  + " records unread: the figures below are incomplete");
    }
    return status;
  }
}
