package dev.crawler.cli;

import dev.crawler.frontier.rules.CrawlOption;
import dev.crawler.schemas.options.RequestOptions.Redirects;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code crawler options}: prints the reference of the crawl configuration's options, in Markdown,
 * from the option catalogue: the table of {@code docs/crawl-config.md} is this output, so the
 * reference cannot drift from the code.
 */
@Command(
    name = "options",
    mixinStandardHelpOptions = true,
    description = "Print the reference of the crawl configuration's options (Markdown).")
public final class OptionsCommand implements Callable<Integer> {

  /** A list default longer than this is shortened in the table. */
  private static final int LISTED_AT_MOST = 6;

  @Override
  public Integer call() {
    System.out.print(reference());
    return 0;
  }

  /** The reference: one row per option, in the catalogue's order. */
  public static String reference() {
    StringBuilder out = new StringBuilder();
    out.append("| option | default | values | where | description |\n");
    out.append("|---|---|---|---|---|\n");
    for (CrawlOption<?> option : CrawlOption.all().values()) {
      out.append("| `")
          .append(option.name())
          .append("` | ")
          .append(defaultOf(option))
          .append(" | ")
          .append(valuesOf(option))
          .append(" | ")
          .append(whereOf(option.level()))
          .append(" | ")
          .append(escape(option.doc()))
          .append(" |\n");
    }
    return out.toString();
  }

  private static String defaultOf(CrawlOption<?> option) {
    Object value = option.defaultValue();
    if (value instanceof Optional<?> optional && optional.isEmpty()) {
      return "(none)";
    }
    if (value instanceof List<?> list) {
      if (list.isEmpty()) {
        return "(empty)";
      }
      if (list.size() > LISTED_AT_MOST) {
        List<String> first = new ArrayList<>();
        list.subList(0, LISTED_AT_MOST).forEach(item -> first.add(CrawlOption.format(item)));
        return "`" + String.join(", ", first) + ", …` (" + list.size() + ")";
      }
      return "`[" + String.join(", ", list.stream().map(CrawlOption::format).toList()) + "]`";
    }
    String text = CrawlOption.format(value);
    return text.isEmpty() ? "(empty)" : "`" + escape(text) + "`";
  }

  private static String valuesOf(CrawlOption<?> option) {
    if (option.bounds().isPresent()) {
      return option.bounds().get().toString();
    }
    if (option.takesMapping()) {
      return option == CrawlOption.PROXY ? "a URL or a mapping" : "a mapping";
    }
    Object value = option.defaultValue();
    if (value instanceof Boolean) {
      return "`true`, `false`";
    }
    if (value instanceof Enum<?> constant) {
      List<String> names = new ArrayList<>();
      for (Enum<?> each : constant.getDeclaringClass().getEnumConstants()) {
        names.add("`" + CrawlOption.format(each) + "`");
      }
      return String.join(", ", names);
    }
    if (value instanceof Redirects) {
      return "`record`, `follow N`";
    }
    if (value instanceof Duration) {
      return "a duration";
    }
    if (value instanceof List<?>) {
      return "a list";
    }
    return "text";
  }

  private static String whereOf(CrawlOption.Level level) {
    return switch (level) {
      case GLOBAL -> "global";
      case SITE -> "global, sites";
      case URL -> "global, sites, rules";
    };
  }

  private static String escape(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }
}
