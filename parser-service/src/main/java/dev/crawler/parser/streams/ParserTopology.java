package dev.crawler.parser.streams;

import dev.crawler.common.streams.Sinks;
import dev.crawler.common.streams.Sources;
import dev.crawler.parser.domain.PageParser;
import dev.crawler.schemas.Topics;
import org.apache.kafka.streams.Topology;

/**
 * The parser as a Kafka Streams topology, stateless: {@code crawl.fetch-results} in; {@code
 * crawl.parsed}, {@code crawl.discovered} (links and canonicals, keyed by their own origin), and
 * {@code crawl.outcomes} and {@code crawl.log} (rejections) out.
 */
public final class ParserTopology {

  static final String SOURCE = "fetch-results";
  static final String PROCESSOR = "parser";
  static final String PARSED_SINK = "parsed";
  static final String DISCOVERED_SINK = "discovered";
  static final String OUTCOMES_SINK = "outcomes";
  static final String LOG_SINK = "log";

  private ParserTopology() {}

  /** The topology without the recent-links optimization: every link of every page is sent. */
  public static Topology build(Topics topics, PageParser parser) {
    return build(topics, parser, 0);
  }

  /**
   * The topology.
   *
   * @param recentLinks links each task remembers having sent, to send a link found on many pages once
   */
  public static Topology build(Topics topics, PageParser parser, int recentLinks) {
    Topology topology = new Topology();
    Sources.add(topology, SOURCE, topics.fetchResults());
    topology.addProcessor(PROCESSOR, () -> new ParserProcessor(parser, recentLinks), SOURCE);
    Sinks.add(topology, PARSED_SINK, topics.parsed(), PROCESSOR);
    Sinks.add(topology, DISCOVERED_SINK, topics.discovered(), PROCESSOR);
    Sinks.add(topology, OUTCOMES_SINK, topics.outcomes(), PROCESSOR);
    Sinks.add(topology, LOG_SINK, topics.log(), PROCESSOR);
    return topology;
  }

}
