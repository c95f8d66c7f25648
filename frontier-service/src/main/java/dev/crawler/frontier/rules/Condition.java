package dev.crawler.frontier.rules;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A test on a URL that a rule applies for, or that URLs may not or must have. Conditions are
 * immutable, thread-safe, and compiled once when the configuration is loaded.
 */
public sealed interface Condition {

  /** Whether the URL matches. */
  boolean matches(CandidateUrl url);

  /** The regular expression is found anywhere in the URL. */
  record UrlRegex(Pattern pattern) implements Condition {
    @Override
    public boolean matches(CandidateUrl url) {
      return pattern.matcher(url.url()).find();
    }
  }

  /**
   * The host is exactly this one, or with {@code *.suffix} the suffix domain or any host under it.
   */
  record Host(String host) implements Condition {
    @Override
    public boolean matches(CandidateUrl url) {
      if (host.startsWith("*.")) {
        String suffix = host.substring(2);
        return url.host().equals(suffix) || url.host().endsWith("." + suffix);
      }
      return url.host().equals(host);
    }
  }

  /**
   * The registered domain (public suffix + one label, crawler-commons' {@link EffectiveTldFinder})
   * is this one.
   */
  record Domain(String domain) implements Condition {
    @Override
    public boolean matches(CandidateUrl url) {
      return domain.equals(url.registeredDomain());
    }
  }

  /** The path starts with this prefix. */
  record PathPrefix(String prefix) implements Condition {
    @Override
    public boolean matches(CandidateUrl url) {
      return url.path().startsWith(prefix);
    }
  }

  /** The regular expression is found in the path. */
  record PathRegex(Pattern pattern) implements Condition {
    @Override
    public boolean matches(CandidateUrl url) {
      return pattern.matcher(url.path()).find();
    }
  }

  /** The file extension is one of these (lower-case). */
  record Extension(Set<String> extensions) implements Condition {
    @Override
    public boolean matches(CandidateUrl url) {
      return url.extension().isPresent() && extensions.contains(url.extension().get());
    }
  }

  /** The query has a parameter of this name. */
  record QueryParameter(String name) implements Condition {
    @Override
    public boolean matches(CandidateUrl url) {
      return url.parameters().contains(name);
    }
  }

  /** The query has no parameter other than these (url_query_parameters). */
  record QueryParametersOnly(Set<String> allowed) implements Condition {
    @Override
    public boolean matches(CandidateUrl url) {
      return allowed.containsAll(url.parameters());
    }
  }

  /**
   * The url_query_parameters policies together: a URL without query parameters matches; one with
   * parameters matches when any policy whose path prefix applies allows every one of them. A query
   * no policy applies to is not allowed ("a combination of query parameters not explicitly
   * allowed").
   */
  record QueryPolicies(List<QueryPolicy> policies) implements Condition {
    @Override
    public boolean matches(CandidateUrl url) {
      if (url.parameters().isEmpty()) {
        return true;
      }
      for (QueryPolicy policy : policies) {
        if (policy.appliesTo(url) && policy.allows(url)) {
          return true;
        }
      }
      return false;
    }
  }

  /**
   * One url_query_parameters policy: under the path prefix, a query may have these parameters.
   *
   * @param allowed the parameter names, or {@code *} for any
   */
  record QueryPolicy(String pathPrefix, Set<String> allowed) {
    boolean appliesTo(CandidateUrl url) {
      return url.path().startsWith(pathPrefix);
    }

    boolean allows(CandidateUrl url) {
      return allowed.contains("*") || allowed.containsAll(url.parameters());
    }
  }

  /** The depth compares with a number: {@code <, <=, ==, !=, >=, >}. */
  record Depth(String operator, int value) implements Condition {
    @Override
    public boolean matches(CandidateUrl url) {
      int depth = url.depth();
      return switch (operator) {
        case "<" -> depth < value;
        case "<=" -> depth <= value;
        case "==" -> depth == value;
        case "!=" -> depth != value;
        case ">=" -> depth >= value;
        case ">" -> depth > value;
        default -> throw new IllegalStateException("unknown operator " + operator);
      };
    }
  }

  /** Every condition matches. */
  record All(List<Condition> conditions) implements Condition {
    @Override
    public boolean matches(CandidateUrl url) {
      for (Condition condition : conditions) {
        if (!condition.matches(url)) {
          return false;
        }
      }
      return true;
    }
  }

  /** At least one condition matches. */
  record Any(List<Condition> conditions) implements Condition {
    @Override
    public boolean matches(CandidateUrl url) {
      for (Condition condition : conditions) {
        if (condition.matches(url)) {
          return true;
        }
      }
      return false;
    }
  }

  /** The condition does not match. */
  record Not(Condition condition) implements Condition {
    @Override
    public boolean matches(CandidateUrl url) {
      return !condition.matches(url);
    }
  }
}
