package dev.crawler.frontier.rules.bench;

import dev.crawler.frontier.rules.CrawlConfigLoader;
import dev.crawler.frontier.rules.Resolution;
import dev.crawler.frontier.rules.RuleEngine;
import dev.crawler.frontier.rules.ScopeCheck;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Prints how many URLs per second one thread decides with 100 rules of mixed conditions (nested
 * apply rules, regexes, hosts, prefixes, extensions, query parameters, depth, combinations): {@code
 * java ... RuleEngineBenchmark [URLS]}.
 */
public final class RuleEngineBenchmark {

  public static void main(String[] args) {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    StringBuilder yaml =
        new StringBuilder(
            "global: {default-allow: allow, scope: any}\npolicies:\n  do-not-crawl: ['/tmp/', '\\\\.bak$']\nrules:\n");
    for (int i = 0; i < 20; i++) {
      yaml.append("  - apply-for: {host: 'h")
          .append(i)
          .append(".example.org'}\n")
          .append("    options: {delay-ms: ")
          .append(100 + i)
          .append("}\n")
          .append("    rules:\n")
          .append("      - may-not-have: {path-regex: '/private")
          .append(i)
          .append("/.*\\\\.html$'}\n        log: true\n")
          .append(
              "      - apply-except-for: {path-prefix: /archive/}\n        options: {max-depth: 5}\n");
      yaml.append("  - may-not-have: {all: [{query-parameter: sid")
          .append(i)
          .append("}, {depth: '> 3'}]}\n");
      yaml.append("  - apply-for: {any: [{extension: [x")
          .append(i)
          .append(", y")
          .append(i)
          .append("]}, {url-regex: 'token=")
          .append(i)
          .append("'}]}\n")
          .append("    options: {follow-query-strings: false}\n");
      yaml.append("  - apply-for: {not: {domain: example")
          .append(i)
          .append(".com}}\n    options: {obey-robots-meta: true}\n");
    }
    RuleEngine engine = new RuleEngine(CrawlConfigLoader.parse(yaml.toString(), "benchmark.yaml"));
    List<String> urls = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      urls.add(
          "http://h"
              + (i % 25)
              + ".example.org/"
              + (i % 3 == 0 ? "archive/" : "news/")
              + "page-"
              + i
              + ".html"
              + (i % 7 == 0 ? "?page=" + i + "&sid" + (i % 20) + "=x" : ""));
    }
    ScopeCheck scope = ScopeCheck.ofSeeds(List.of("http://h0.example.org/"));
    for (int round = 1; round <= 3; round++) {
      long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
      long started = System.nanoTime();
      int crawled = 0;
      for (int i = 0; i < count; i++) {
        Resolution resolution = engine.resolve(urls.get(i % urls.size()), i % 6, scope);
        if (resolution.isCrawled()) {
          crawled++;
        }
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      double cpuSeconds =
          (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpu) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "round %d: %d URLs, 100 rules: %.0f URLs/s per core (%.0f wall), %d crawled%n",
          round,
          count,
          count / cpuSeconds,
          count / seconds,
          crawled);
    }
  }
}
