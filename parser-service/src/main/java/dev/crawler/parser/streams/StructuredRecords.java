package dev.crawler.parser.streams;

import dev.crawler.events.StructuredDataProblem;
import dev.crawler.events.StructuredItem;
import dev.crawler.events.StructuredSource;
import dev.crawler.parser.domain.StructuredData;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A page's structured data as the parsed document carries it ({@code StructuredData} records). */
final class StructuredRecords {

  private StructuredRecords() {}

  static dev.crawler.events.StructuredData of(StructuredData data) {
    List<StructuredItem> items = new ArrayList<>(data.items().size());
    for (StructuredData.Item item : data.items()) {
      items.add(
          StructuredItem.newBuilder()
              .setSource(
                  item.source() == StructuredData.Source.JSON_LD
                      ? StructuredSource.JSON_LD
                      : StructuredSource.MICRODATA)
              .setTypes(item.types())
              .setId(item.id().orElse(null))
              .setProperties(copy(item.properties()))
              .setJson(item.json())
              .build());
    }
    List<StructuredDataProblem> problems = new ArrayList<>(data.problems().size());
    for (StructuredData.Problem problem : data.problems()) {
      problems.add(new StructuredDataProblem(problem.block(), problem.message()));
    }
    return dev.crawler.events.StructuredData.newBuilder()
        .setItems(items)
        .setOpenGraph(copy(data.openGraph()))
        .setTwitter(copy(data.twitter()))
        .setDatePublished(data.publishedAt().orElse(null))
        .setAuthors(data.authors())
        .setProblems(problems)
        .build();
  }

  private static Map<String, List<String>> copy(Map<String, List<String>> map) {
    return new LinkedHashMap<>(map);
  }
}
