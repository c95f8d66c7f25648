package dev.crawler.common.usage;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The usage statements of a page's meta tags: TDMRep's {@code <meta name="tdm-reservation">} and
 * {@code <meta name="tdm-policy">} (TDMRep, "TDM Metadata in HTML Content"), and {@code noai} /
 * {@code noimageai} in {@code <meta name="robots">} or a meta tag named for our agent.
 *
 * <p>All the TDMRep tags of a page make one statement (any valid {@code 1} reserves; the first
 * policy is kept); each robots tag that says {@code noai} or {@code noimageai} makes its own, at
 * most {@link #MAX_ROBOTS_STATEMENTS}. Stateless and thread-safe.
 */
public final class UsageMeta {

  /** The most robots meta statements kept from one page. */
  public static final int MAX_ROBOTS_STATEMENTS = 8;

  /** The most TDMRep meta tags of each name read from one page. */
  public static final int MAX_TDMREP_TAGS = 8;

  /** The longest content read, in characters; a longer one is reported and ignored. */
  public static final int MAX_CONTENT_CHARS = 4096;

  private UsageMeta() {}

  /**
   * The statements {@code tags} make for the crawler named {@code agent}.
   *
   * @param tags the page's meta tags, in document order
   * @param agent our crawler's name in robots meta tags addressed to one crawler ({@code <meta
   *     name="NAME">})
   */
  public static UsageFindings read(List<MetaTag> tags, String agent) {
    String ourAgent = agent.strip().toLowerCase(Locale.ROOT);
    List<UsageStatement> robots = new ArrayList<>();
    List<UsageProblem> problems = new ArrayList<>();
    List<String> reservations = new ArrayList<>();
    List<String> policies = new ArrayList<>();
    for (MetaTag tag : tags) {
      String name = tag.name().strip().toLowerCase(Locale.ROOT);
      boolean isTdmRep = name.equals(TdmRepValues.RESERVATION) || name.equals(TdmRepValues.POLICY);
      boolean isRobots = name.equals("robots") || name.equals(ourAgent);
      if (!isTdmRep && !isRobots) {
        continue;
      }
      UsageSource source = isTdmRep ? UsageSource.TDMREP_META : UsageSource.ROBOTS_META;
      if (tag.content().length() > MAX_CONTENT_CHARS) {
        problems.add(
            UsageProblem.about(
                source,
                "meta " + name + " longer than " + MAX_CONTENT_CHARS + " characters ignored",
                tag.content()));
      } else if (name.equals(TdmRepValues.RESERVATION)) {
        if (reservations.size() < MAX_TDMREP_TAGS) {
          reservations.add(tag.content());
        }
      } else if (name.equals(TdmRepValues.POLICY)) {
        if (policies.size() < MAX_TDMREP_TAGS) {
          policies.add(tag.content());
        }
      } else if (robots.size() < MAX_ROBOTS_STATEMENTS) {
        String scope = name.equals("robots") ? "" : "agent=" + ourAgent;
        NoAiDirectives.ofMeta(tag.content(), scope).ifPresent(robots::add);
      }
    }
    return new UsageFindings(robots, problems)
        .and(TdmRepValues.read(UsageSource.TDMREP_META, reservations, policies, ""));
  }
}
