package dev.crawler.parser.streams;

import dev.crawler.common.decision.CrawlLog;
import dev.crawler.common.streams.Sinks;
import dev.crawler.common.streams.Sources;
import dev.crawler.parser.domain.Page;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.parser.domain.ParseOptions;
import dev.crawler.parser.domain.ParseResult;
import dev.crawler.parser.domain.ParserSettings;
import dev.crawler.parser.domain.RecentLinks;
import dev.crawler.schemas.Topics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.function.BiFunction;
import org.apache.kafka.streams.Topology;

/**
 * The parser as a Kafka Streams topology, stateless. For each {@code FetchResult} on {@code
 * crawl.fetch-results} (keyed by origin):
 *
 * <ul>
 *   <li>a parsed page: its {@code ParsedDocument} to {@code crawl.parsed} (same key), and to {@code
 *       crawl.discovered} (keyed by each URL's own origin) its links at depth + 1 — none when the
 *       page is nofollow and robots meta is obeyed — or, when it names another canonical URL, only
 *       that canonical at the page's depth. No outcome: the committer decides it.
 *   <li>a file (an imported media type the parser does not read itself: PDF, office documents;
 *       {@code ParserSettings#isReadAsFile}): the fetch result as it is to {@code crawl.imports},
 *       where the import loop reads it (importing a file may take seconds, which the topology's
 *       transactions cannot wait for);
 *   <li>a rejected page: {@code IMPORT_REJECTED} on {@code crawl.outcomes} and {@code crawl.log}
 *       (same key); an unexpected failure while processing the record: {@code ERROR} there, with
 *       the exception as the detail.
 *   <li>a record that cannot be decoded, or has no value: {@code crawl.dead-letters}, by the {@code
 *       DeadLetterHandler} the service installs.
 * </ul>
 */
public final class ParserTopology {

  static final String SOURCE = "fetch-results";
  static final String PROCESSOR = "parser";
  static final String PARSED_SINK = "parsed";
  static final String DISCOVERED_SINK = "discovered";
  static final String OUTCOMES_SINK = "outcomes";
  static final String LOG_SINK = "log";
  static final String IMPORTS_SINK = "imports";

  private ParserTopology() {}

  /**
   * The topology, parsing with a {@link PageParser} of these settings.
   *
   * @param registry where the parser's meters and crawl-log counts go
   */
  public static Topology build(Topics topics, ParserSettings settings, MeterRegistry registry) {
    return build(topics, settings, registry, new PageParser(settings)::parse);
  }

  /** The topology with another parser: for tests of what happens when parsing fails. */
  static Topology build(
      Topics topics,
      ParserSettings settings,
      MeterRegistry registry,
      BiFunction<Page, ParseOptions, ParseResult> parser) {
    Topology topology = new Topology();
    Sources.add(topology, SOURCE, topics.fetchResults());
    CrawlLog log = new CrawlLog(ParserProcessor.SERVICE, registry);
    Timer parseDuration = ParserProcessor.parseDuration(registry);
    RecentLinks recentLinks =
        new RecentLinks(settings.recentLinks(), RecentLinks.DEFAULT_MAX_AGE_MILLIS);
    topology.addProcessor(
        PROCESSOR,
        () -> new ParserProcessor(parser, settings, recentLinks, log, parseDuration),
        SOURCE);
    Sinks.add(topology, PARSED_SINK, topics.parsed(), PROCESSOR);
    Sinks.add(topology, DISCOVERED_SINK, topics.discovered(), PROCESSOR);
    Sinks.add(topology, OUTCOMES_SINK, topics.outcomes(), PROCESSOR);
    Sinks.add(topology, LOG_SINK, topics.log(), PROCESSOR);
    Sinks.add(topology, IMPORTS_SINK, topics.imports(), PROCESSOR);
    return topology;
  }
}
