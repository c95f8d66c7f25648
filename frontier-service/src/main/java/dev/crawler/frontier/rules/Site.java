package dev.crawler.frontier.rules;

import java.util.List;
import java.util.Map;

/**
 * A site of the crawl configuration: a name, its seeds, and options assigned to its URLs after the
 * global ones. A URL belongs to the site whose seeds include its origin.
 */
public record Site(String name, List<String> seeds, Map<CrawlOption<?>, Object> options) {}
