package dev.crawler.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.frontier.rules.CrawlConfig;
import dev.crawler.frontier.rules.CrawlConfigException;
import dev.crawler.frontier.rules.CrawlConfigLoader;
import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.frontier.rules.Resolution;
import dev.crawler.frontier.rules.RuleEngine;
import dev.crawler.frontier.rules.ScopeCheck;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code crawler explain URL}: what the crawl configuration decides about a URL and why, offline
 * ("view resolved"): the disposition, every option with the rule that set it, and the rules whose
 * condition did not let them apply.
 */
@Command(
    name = "explain",
    mixinStandardHelpOptions = true,
    description = "Explain what the crawl configuration decides about a URL (offline).")
public final class ExplainCommand implements Callable<Integer> {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  @Parameters(index = "0", paramLabel = "URL", description = "The URL to explain.")
  String url;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "The crawl configuration (crawl.yaml); the defaults without it.")
  Path config;

  @Option(
      names = "--depth",
      paramLabel = "N",
      defaultValue = "0",
      description = "The depth the URL is found at (default: ${DEFAULT-VALUE}).")
  int depth;

  @Option(
      names = "--seed",
      paramLabel = "URL",
      description =
          "A seed of the crawl, for the scope (default: the configuration's sites' seeds, else the URL itself).")
  List<String> seeds = new ArrayList<>();

  @Option(
      names = "--calendar-hops",
      paramLabel = "N",
      defaultValue = "0",
      description =
          "Links in a row from dated pages of the URL's template that led to it, for the max-calendar-hops trap rule (default: ${DEFAULT-VALUE}).")
  int calendarHops;

  @Option(names = "--json", description = "Print one JSON object.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    CrawlConfig crawl;
    try {
      crawl = config == null ? CrawlConfig.DEFAULTS : CrawlConfigLoader.load(config);
    } catch (CrawlConfigException e) {
      System.err.println("crawler: " + e.getMessage());
      return CrawlerCli.USAGE_ERROR;
    }
    if (calendarHops < 0) {
      System.err.println("crawler: --calendar-hops must be at least 0, got " + calendarHops);
      return CrawlerCli.USAGE_ERROR;
    }
    if (depth < 0) {
      System.err.println("crawler: --depth must be at least 0, got " + depth);
      return CrawlerCli.USAGE_ERROR;
    }
    String candidate = UrlNormalizer.tryNormalize(url).orElse(url);
    List<String> scopeSeeds =
        !seeds.isEmpty()
            ? seeds
            : !crawl.seeds().isEmpty()
                ? crawl.seeds()
                : UrlNormalizer.tryNormalize(url).map(List::of).orElse(List.of());
    Resolution resolution =
        new RuleEngine(crawl)
            .resolve(
                candidate,
                depth,
                ScopeCheck.ofSeeds(
                    scopeSeeds.stream()
                        .map(s -> UrlNormalizer.tryNormalize(s).orElse(s))
                        .filter(UrlNormalizer::isHttp)
                        .toList()),
                false,
                calendarHops);
    PrintStream out = System.out;
    if (json) {
      out.println(JSON.writeValueAsString(toJson(resolution)));
    } else {
      print(resolution, out);
    }
    return 0;
  }

  static Map<String, Object> toJson(Resolution resolution) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("url", resolution.url());
    json.put("disposition", resolution.disposition().name().toLowerCase(Locale.ROOT));
    json.put("outcome", resolution.outcome().map(Enum::name).orElse(null));
    json.put("detail", resolution.detail().orElse(null));
    json.put("rule", resolution.rule().orElse(null));
    Map<String, Object> options = new LinkedHashMap<>();
    resolution
        .options()
        .forEach(
            (option, setting) ->
                options.put(
                    option.name(),
                    Map.of(
                        "value", CrawlOption.format(setting.value()), "setBy", setting.setBy())));
    json.put("options", options);
    json.put("skipped", resolution.skipped());
    return json;
  }

  private static void print(Resolution resolution, PrintStream out) {
    out.println(resolution.url());
    String disposition = resolution.disposition().name().toLowerCase(Locale.ROOT);
    out.println(
        "  disposition: "
            + disposition
            + resolution
                .outcome()
                .map(o -> " (" + o + (resolution.detail().map(d -> ": " + d).orElse("")) + ")")
                .orElse(resolution.isCrawled() ? "" : " (not logged)")
            + resolution.rule().map(r -> ", decided by " + r).orElse(""));
    out.println("  options:");
    resolution
        .options()
        .forEach(
            (option, setting) ->
                out.printf(
                    Locale.ROOT,
                    "    %-26s %-24s set by %s%n",
                    option.name(),
                    CrawlOption.format(setting.value()),
                    setting.setBy()));
    if (!resolution.skipped().isEmpty()) {
      out.println(
          "  skipped (condition did not apply, children not evaluated): "
              + String.join(", ", resolution.skipped()));
    }
  }
}
