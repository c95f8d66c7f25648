package dev.crawler.cli;

import dev.crawler.common.Seeds;
import dev.crawler.common.url.UrlNormalizer;
import dev.crawler.schemas.InvalidUrlException;
import dev.crawler.schemas.Topics;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code crawler seed URL...}: adds seeds to a running crawl ({@link Seeds}). Every URL is checked
 * first: one that is not an http(s) URL stops the command, naming it, and nothing is sent.
 */
@Command(
    name = "seed",
    mixinStandardHelpOptions = true,
    description = "Add seed URLs to a running crawl.")
public final class SeedCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Parameters(
      arity = "1..*",
      paramLabel = "URL",
      description = "The seeds: http:// or https:// URLs.")
  List<String> urls;

  @Override
  public Integer call() throws Exception {
    List<String> seeds = new ArrayList<>();
    for (String url : urls) {
      try {
        seeds.add(UrlNormalizer.normalize(url));
      } catch (InvalidUrlException e) {
        spec.commandLine()
            .getErr()
            .println("crawler: not a seed URL: " + url + " (" + e.getMessage() + ")");
        return CrawlerCli.USAGE_ERROR;
      }
    }
    Topics topics = cluster.topics();
    try {
      Seeds.send(cluster.kafkaProperties(), topics, seeds, Instant.now());
    } catch (Seeds.NotSentException e) {
      spec.commandLine().getErr().println("crawler: " + e.getMessage());
      spec.commandLine().getErr().flush();
      return 1;
    }
    spec.commandLine()
        .getOut()
        .println(seeds.size() + " seed(s) sent to " + topics.discovered().name());
    spec.commandLine().getOut().flush();
    return 0;
  }
}
