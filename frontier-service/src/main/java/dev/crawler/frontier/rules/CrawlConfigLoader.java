package dev.crawler.frontier.rules;

import dev.crawler.common.url.UrlNormalizer;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads {@code crawl.yaml} (format: {@code docs/crawl-config.md}) and checks all of it: an unknown
 * key, a bad value or a bad regular expression is a {@link CrawlConfigException} naming the file,
 * the line and the key, so nothing starts with a configuration that does not mean what its author
 * thinks.
 */
public final class CrawlConfigLoader {

  private static final Set<String> TOP_LEVEL = Set.of("global", "sites", "rules", "policies");
  private static final Set<String> RULE_KINDS =
      Set.of("apply-for", "apply-except-for", "may-not-have", "must-have");
  private static final Pattern DEPTH = Pattern.compile("\\s*(<=|>=|==|!=|<|>)?\\s*(\\d+)\\s*");

  private final String file;

  private CrawlConfigLoader(String file) {
    this.file = file;
  }

  /** Reads and checks a configuration file. */
  public static CrawlConfig load(Path path) {
    String text;
    try {
      text = Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new CrawlConfigException(path + ": cannot be read: " + e.getMessage());
    }
    return parse(text, path.toString());
  }

  /** Reads and checks a configuration given as text; {@code file} names it in errors. */
  public static CrawlConfig parse(String text, String file) {
    return new CrawlConfigLoader(file).document(text);
  }

  private CrawlConfig document(String text) {
    Node root;
    try {
      root = new Yaml(new LoaderOptions()).compose(new StringReader(text));
    } catch (YAMLException e) {
      throw new CrawlConfigException(
          file + ": not valid YAML: " + e.getMessage().replace('\n', ' '));
    }
    if (root == null) {
      return CrawlConfig.DEFAULTS;
    }
    Map<String, Node> top = mapping(root, "the document", TOP_LEVEL);
    Map<CrawlOption<?>, Object> global =
        top.containsKey("global") ? options(top.get("global"), "global") : Map.of();
    List<Site> sites = top.containsKey("sites") ? sites(top.get("sites")) : List.of();
    List<Rule> rules = new ArrayList<>();
    if (top.containsKey("policies")) {
      rules.addAll(policies(top.get("policies")));
    }
    if (top.containsKey("rules")) {
      rules.addAll(rules(top.get("rules"), "rules"));
    }
    return new CrawlConfig(Map.copyOf(global), List.copyOf(sites), List.copyOf(rules));
  }

  private List<Site> sites(Node node) {
    List<Site> sites = new ArrayList<>();
    Set<String> names = new HashSet<>();
    List<Node> items = sequence(node, "sites");
    for (int i = 0; i < items.size(); i++) {
      String where = "sites[" + i + "]";
      Map<String, Node> site = mapping(items.get(i), where, Set.of("name", "seeds", "options"));
      String name =
          site.containsKey("name") ? scalar(site.get("name"), where + ".name") : "site" + (i + 1);
      if (!names.add(name)) {
        throw error(items.get(i), where + ".name", "two sites are named '" + name + "'");
      }
      List<String> seeds = new ArrayList<>();
      if (site.containsKey("seeds")) {
        for (Node seed : sequence(site.get("seeds"), where + ".seeds")) {
          String url = scalar(seed, where + ".seeds");
          try {
            seeds.add(UrlNormalizer.normalize(url));
          } catch (RuntimeException e) {
            throw error(
                seed, where + ".seeds", "'" + url + "' is not a crawlable URL: " + e.getMessage());
          }
        }
      }
      Map<CrawlOption<?>, Object> options =
          site.containsKey("options") ? options(site.get("options"), where + ".options") : Map.of();
      sites.add(new Site(name, List.copyOf(seeds), Map.copyOf(options)));
    }
    return sites;
  }

  private Map<CrawlOption<?>, Object> options(Node node, String where) {
    Map<CrawlOption<?>, Object> options = new LinkedHashMap<>();
    for (NodeTuple tuple : tuples(node, where)) {
      String key = scalar(tuple.getKeyNode(), where);
      CrawlOption<?> option =
          CrawlOption.named(key)
              .orElseThrow(
                  () ->
                      error(
                          tuple.getKeyNode(),
                          where + "." + key,
                          "unknown option; options are "
                              + String.join(", ", CrawlOption.all().keySet())));
      if (option.level() == CrawlOption.Level.GLOBAL && !where.equals("global")) {
        throw error(
            tuple.getKeyNode(), where + "." + key, "a global option: assign it under global");
      }
      if (option.level() == CrawlOption.Level.SITE && where.startsWith("rules")) {
        throw error(
            tuple.getKeyNode(),
            where + "." + key,
            "a site option: assign it under global or a site's options");
      }
      Object value = value(tuple.getValueNode(), where + "." + key);
      if (value instanceof Map && !option.takesMapping()) {
        throw error(tuple.getValueNode(), where + "." + key, "expected a single value or a list");
      }
      try {
        options.put(option, option.parse(value));
      } catch (IllegalArgumentException e) {
        throw error(tuple.getValueNode(), where + "." + key, e.getMessage());
      }
    }
    return options;
  }

  private List<Rule> rules(Node node, String where) {
    List<Rule> rules = new ArrayList<>();
    List<Node> items = sequence(node, where);
    for (int i = 0; i < items.size(); i++) {
      rules.add(rule(items.get(i), where + "[" + i + "]"));
    }
    return rules;
  }

  private Rule rule(Node node, String where) {
    Map<String, Node> rule =
        mapping(
            node,
            where,
            Set.of(
                "apply-for",
                "apply-except-for",
                "may-not-have",
                "must-have",
                "name",
                "options",
                "rules",
                "log"));
    List<String> kinds = rule.keySet().stream().filter(RULE_KINDS::contains).toList();
    if (kinds.size() != 1) {
      throw error(
          node,
          where,
          "a rule has exactly one of apply-for, apply-except-for, may-not-have, must-have; found "
              + (kinds.isEmpty() ? "none" : kinds));
    }
    String kind = kinds.get(0);
    String path = rule.containsKey("name") ? scalar(rule.get("name"), where + ".name") : where;
    Condition condition = condition(rule.get(kind), where + "." + kind);
    if (kind.startsWith("apply")) {
      if (rule.containsKey("log")) {
        throw error(
            rule.get("log"), where + ".log", "log is a flag of may-not-have and must-have rules");
      }
      Map<CrawlOption<?>, Object> options =
          rule.containsKey("options") ? options(rule.get("options"), where + ".options") : Map.of();
      // children are named under their parent's name, so an explanation reads "archive.rules[0]"
      List<Rule> children =
          rule.containsKey("rules") ? rules(rule.get("rules"), path + ".rules") : List.of();
      return new Rule.Apply(
          path,
          condition,
          kind.equals("apply-except-for"),
          Map.copyOf(options),
          List.copyOf(children));
    }
    for (String key : List.of("options", "rules")) {
      if (rule.containsKey(key)) {
        throw error(
            rule.get(key),
            where + "." + key,
            key + " belong to apply-for and apply-except-for rules");
      }
    }
    boolean log = rule.containsKey("log") && bool(rule.get("log"), where + ".log");
    return new Rule.Filter(path, condition, kind.equals("must-have"), log, "RULE");
  }

  private Condition condition(Node node, String where) {
    Map<String, Node> condition =
        mapping(
            node,
            where,
            Set.of(
                "url-regex",
                "host",
                "domain",
                "path-prefix",
                "path-regex",
                "extension",
                "query-parameter",
                "query-parameters-only",
                "depth",
                "all",
                "any",
                "not"));
    if (condition.size() != 1) {
      throw error(
          node,
          where,
          "a condition has exactly one key, found "
              + condition.keySet()
              + " (combine with all, any, not)");
    }
    Map.Entry<String, Node> entry = condition.entrySet().iterator().next();
    String key = entry.getKey();
    Node value = entry.getValue();
    String at = where + "." + key;
    switch (key) {
      case "url-regex":
        return new Condition.UrlRegex(regex(value, at));
      case "path-regex":
        return new Condition.PathRegex(regex(value, at));
      case "host":
        return new Condition.Host(scalar(value, at).toLowerCase(Locale.ROOT));
      case "domain":
        return new Condition.Domain(scalar(value, at).toLowerCase(Locale.ROOT));
      case "path-prefix":
        String prefix = scalar(value, at);
        if (!prefix.startsWith("/")) {
          throw error(value, at, "a path prefix starts with /");
        }
        return new Condition.PathPrefix(prefix);
      case "extension":
        return new Condition.Extension(
            Set.copyOf(
                words(value, at).stream()
                    .map(e -> e.toLowerCase(Locale.ROOT).replaceFirst("^\\.", ""))
                    .toList()));
      case "query-parameter":
        return new Condition.QueryParameter(scalar(value, at));
      case "query-parameters-only":
        return new Condition.QueryParametersOnly(Set.copyOf(words(value, at)));
      case "depth":
        Matcher matcher = DEPTH.matcher(scalar(value, at));
        if (!matcher.matches()) {
          throw error(value, at, "a depth comparison is e.g. '> 2', '<= 3' or '0'");
        }
        return new Condition.Depth(
            matcher.group(1) == null ? "==" : matcher.group(1), Integer.parseInt(matcher.group(2)));
      case "all":
      case "any":
        List<Condition> parts = new ArrayList<>();
        List<Node> items = sequence(value, at);
        for (int i = 0; i < items.size(); i++) {
          parts.add(condition(items.get(i), at + "[" + i + "]"));
        }
        return key.equals("all")
            ? new Condition.All(List.copyOf(parts))
            : new Condition.Any(List.copyOf(parts));
      case "not":
        return new Condition.Not(condition(value, at));
      default:
        throw error(node, at, "unknown condition");
    }
  }

  /** Policies, as the rules they stand for. */
  private List<Rule> policies(Node node) {
    List<Rule> rules = new ArrayList<>();
    Map<String, Node> policies =
        mapping(node, "policies", Set.of("do-not-crawl", "url-query-parameters"));
    if (policies.containsKey("do-not-crawl")) {
      List<Node> patterns = sequence(policies.get("do-not-crawl"), "policies.do-not-crawl");
      for (int i = 0; i < patterns.size(); i++) {
        String where = "policies.do-not-crawl[" + i + "]";
        rules.add(
            new Rule.Filter(
                where,
                new Condition.UrlRegex(regex(patterns.get(i), where)),
                false,
                true,
                "LOCAL_POLICY"));
      }
    }
    if (policies.containsKey("url-query-parameters")) {
      List<Node> entries =
          sequence(policies.get("url-query-parameters"), "policies.url-query-parameters");
      List<Condition.QueryPolicy> queryPolicies = new ArrayList<>();
      for (int i = 0; i < entries.size(); i++) {
        String where = "policies.url-query-parameters[" + i + "]";
        Map<String, Node> entry = mapping(entries.get(i), where, Set.of("path-prefix", "allowed"));
        String prefix =
            entry.containsKey("path-prefix")
                ? scalar(entry.get("path-prefix"), where + ".path-prefix")
                : "/";
        if (!prefix.startsWith("/")) {
          throw error(
              entry.get("path-prefix"), where + ".path-prefix", "a path prefix starts with /");
        }
        Set<String> allowed =
            entry.containsKey("allowed")
                ? Set.copyOf(words(entry.get("allowed"), where + ".allowed"))
                : Set.of();
        queryPolicies.add(new Condition.QueryPolicy(prefix, allowed));
      }
      // one rule for all the policies: a query passes
      // when any applicable policy allows it
      rules.add(
          new Rule.Filter(
              "policies.url-query-parameters",
              new Condition.QueryPolicies(List.copyOf(queryPolicies)),
              true,
              true,
              "LOCAL_POLICY"));
    }
    return rules;
  }

  private Pattern regex(Node node, String where) {
    String text = scalar(node, where);
    try {
      return Pattern.compile(text);
    } catch (PatternSyntaxException e) {
      throw error(node, where, "bad regular expression '" + text + "': " + e.getDescription());
    }
  }

  private List<String> words(Node node, String where) {
    if (node instanceof SequenceNode) {
      return sequence(node, where).stream().map(item -> scalar(item, where)).toList();
    }
    String text = scalar(node, where);
    return text.isBlank() ? List.of() : List.of(text.strip().split("\\s*[,|\\s]\\s*"));
  }

  private boolean bool(Node node, String where) {
    String text = scalar(node, where);
    if (!text.equals("true") && !text.equals("false")) {
      throw error(node, where, "'" + text + "' is not true or false");
    }
    return Boolean.parseBoolean(text);
  }

  /**
   * A scalar as its YAML type (whole numbers and booleans typed), a list of scalars, or a mapping
   * of names to such values (the access options: headers, auth, login, proxy).
   */
  private Object value(Node node, String where) {
    if (node instanceof MappingNode) {
      Map<String, Object> entries = new LinkedHashMap<>();
      for (NodeTuple tuple : tuples(node, where)) {
        String key = scalar(tuple.getKeyNode(), where);
        if (entries.put(key, value(tuple.getValueNode(), where + "." + key)) != null) {
          throw error(tuple.getKeyNode(), where + "." + key, "given twice");
        }
      }
      return entries;
    }
    if (node instanceof SequenceNode) {
      return sequence(node, where).stream().map(item -> scalar(item, where)).toList();
    }
    String text = scalar(node, where);
    String tag = node.getTag().getValue();
    if (tag.endsWith(":bool")) {
      return Boolean.parseBoolean(text);
    }
    if (tag.endsWith(":int")) {
      try {
        return Long.parseLong(text);
      } catch (NumberFormatException e) {
        return text;
      }
    }
    return text;
  }

  private Map<String, Node> mapping(Node node, String where, Set<String> allowed) {
    Map<String, Node> entries = new LinkedHashMap<>();
    for (NodeTuple tuple : tuples(node, where)) {
      String key = scalar(tuple.getKeyNode(), where);
      if (!allowed.contains(key)) {
        throw error(
            tuple.getKeyNode(),
            where.equals("the document") ? key : where + "." + key,
            "unknown key; expected one of " + new TreeSet<>(allowed));
      }
      if (entries.put(key, tuple.getValueNode()) != null) {
        throw error(tuple.getKeyNode(), where + "." + key, "given twice");
      }
    }
    return entries;
  }

  private List<NodeTuple> tuples(Node node, String where) {
    if (!(node instanceof MappingNode mapping)) {
      throw error(node, where, "expected a mapping of keys to values");
    }
    return mapping.getValue();
  }

  private List<Node> sequence(Node node, String where) {
    if (!(node instanceof SequenceNode sequence)) {
      throw error(node, where, "expected a list");
    }
    return sequence.getValue();
  }

  private String scalar(Node node, String where) {
    if (!(node instanceof ScalarNode scalar)) {
      throw error(node, where, "expected a single value");
    }
    return scalar.getValue();
  }

  private CrawlConfigException error(Node node, String key, String message) {
    return new CrawlConfigException(
        file + ":" + (node.getStartMark().getLine() + 1) + ": " + key + ": " + message);
  }
}
