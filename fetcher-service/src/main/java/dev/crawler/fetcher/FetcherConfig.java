package dev.crawler.fetcher;

import dev.crawler.common.config.ServiceConfig;
import dev.crawler.fetcher.domain.AddressPolicy;
import dev.crawler.fetcher.domain.AddressRange;
import dev.crawler.fetcher.domain.BodyBudget;
import dev.crawler.fetcher.domain.RobotsPolicy;
import dev.crawler.fetcher.domain.Secrets;
import dev.crawler.fetcher.http.JettyPageFetcher;
import dev.crawler.fetcher.http.TrustStore;
import dev.crawler.schemas.serde.RecordSize;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/** The fetcher's settings. */
public class FetcherConfig extends ServiceConfig {

  public static final String GROUP_ID_CONFIG = "fetcher.group.id";
  private static final String GROUP_ID_DOC =
      "The consumer group of the fetchers; fetchers in one group share the origins.";

  public static final String USER_AGENT_CONFIG = "fetcher.user.agent";
  private static final String USER_AGENT_DOC =
      "The User-Agent header; robots.txt rules are matched on its product token (the part before '/').";

  public static final String MAX_BODY_BYTES_CONFIG = "fetcher.max.body.bytes";
  private static final String MAX_BODY_BYTES_DOC =
      "The largest body read; a larger one is TOO_LARGE.";

  public static final String CONNECT_TIMEOUT_MS_CONFIG = "fetcher.connect.timeout.ms";
  private static final String CONNECT_TIMEOUT_MS_DOC =
      "How long connecting may take, in milliseconds.";

  public static final String REQUEST_TIMEOUT_MS_CONFIG = "fetcher.request.timeout.ms";
  private static final String REQUEST_TIMEOUT_MS_DOC =
      "How long a whole request may take, in milliseconds; beyond it the outcome is NETWORK_ERROR (timeout).";

  public static final String MAX_CONNECTIONS_CONFIG = "fetcher.max.connections";
  private static final String MAX_CONNECTIONS_DOC = "Requests in flight at most, over all origins.";

  public static final String MAX_PENDING_REQUESTS_CONFIG = "fetcher.max.pending.requests";
  private static final String MAX_PENDING_REQUESTS_DOC =
      "Requests held in memory at most; above it the fetcher stops reading until some are done.";

  public static final String ROBOTS_TTL_MS_CONFIG = "fetcher.robots.ttl.ms";
  private static final String ROBOTS_TTL_MS_DOC =
      "How long an origin's robots.txt is used before it is fetched again, in milliseconds.";

  public static final String OBEY_ROBOTS_CONFIG = "fetcher.obey.robots";
  private static final String OBEY_ROBOTS_DOC =
      "Whether robots.txt is fetched and obeyed. Turning it off is logged loudly.";

  public static final String ARCHIVE_EXCHANGES_CONFIG = "fetcher.archive.exchanges";
  private static final String ARCHIVE_EXCHANGES_DOC =
      "Whether the fetcher records every HTTP exchange as sent and received (request and response fields, protocol, peer address, the body before"
          + " content decoding) for the archive writer: on fetch results, and on crawl.exchanges, each with its body, for robots.txt, HEAD requests,"
          + " redirects recorded, error statuses and bodies not read whole. Each body recorded is bounded by fetcher.max.body.bytes: a longer one"
          + " (TOO_LARGE) is read up to that bound, even when its Content-Length announced more, and archived marked WARC-Truncated: length."
          + " Off, the records are as they were.";

  public static final String VERIFY_TLS_CONFIG = "fetcher.verify.tls";
  private static final String VERIFY_TLS_DOC =
      "Whether TLS certificates are verified; off by default so sites with bad certificates are still crawled.";

  public static final String TRUSTSTORE_CONFIG = "fetcher.tls.truststore";
  private static final String TRUSTSTORE_DOC =
      "A trust store (PKCS12 or JKS) that the TLS of requests carrying credentials (auth, login,"
          + " credential headers) is verified against; empty for the JDK's. Those requests verify"
          + " certificates and host names whatever fetcher.verify.tls says.";

  public static final String TRUSTSTORE_PASSWORD_CONFIG = "fetcher.tls.truststore.password";
  private static final String TRUSTSTORE_PASSWORD_DOC =
      "The password of fetcher.tls.truststore, if it has one.";

  public static final String IDLE_TIMEOUT_MS_CONFIG = "fetcher.idle.timeout.ms";
  private static final String IDLE_TIMEOUT_MS_DOC =
      "How long a connection may stay silent during a request, in milliseconds; beyond it the outcome is NETWORK_ERROR (timeout).";

  public static final String MAX_HOLD_MS_CONFIG = "fetcher.max.hold.ms";
  private static final String MAX_HOLD_MS_DOC =
      "The longest a request waits in the fetcher for its origin (delay, Crawl-delay, back-off, pause), in milliseconds; beyond it the request is"
          + " answered DEFERRED and the frontier keeps the URL queued until the origin is due. Keep it well below the frontier's lease timeout.";

  public static final String BACKOFF_QUIET_MS_CONFIG = "fetcher.backoff.quiet.ms";
  private static final String BACKOFF_QUIET_MS_DOC =
      "How long an origin must go without rate limits or failures before its raised delay is halved, in milliseconds.";

  public static final String HANDOVER_TIMEOUT_MS_CONFIG = "fetcher.handover.timeout.ms";
  private static final String HANDOVER_TIMEOUT_MS_DOC =
      "When partitions move to another fetcher: how long their running requests may take to finish before the hand-over goes on without them, in milliseconds.";

  public static final String INSTANCE_ID_CONFIG = "fetcher.instance.id";
  private static final String INSTANCE_ID_DOC =
      "Names this fetcher in the politeness state it writes and, when set, in its consumer group (static membership, group.instance.id):"
          + " restarted under the same name within session.timeout.ms, it takes its partitions back without a rebalance. Empty for the host"
          + " name and a member without a name. Two running fetchers must never share a name. On Kubernetes, the pod name.";

  public static final String COMMIT_INTERVAL_MS_CONFIG = "fetcher.commit.interval.ms";
  private static final String COMMIT_INTERVAL_MS_DOC =
      "How often the offsets of done requests are committed, in milliseconds.";

  public static final String MAX_BODY_BYTES_IN_FLIGHT_CONFIG = "fetcher.max.body.bytes.in.flight";
  private static final String MAX_BODY_BYTES_IN_FLIGHT_DOC =
      "The bytes the bodies of all running requests may hold at once; 0 for a quarter of the heap. No request starts while there is no"
          + " room for one more body of fetcher.max.body.bytes, and a body that finds no room fails its request, which is retried later"
          + " (NETWORK_ERROR, fetcher busy): many large bodies arriving together slow the fetcher down instead of exhausting its memory.";

  public static final String ROBOTS_MAX_SITEMAPS_CONFIG = "fetcher.robots.max.sitemaps";
  private static final String ROBOTS_MAX_SITEMAPS_DOC =
      "The Sitemap: lines of one robots.txt that are read, the first in its order: a robots.txt naming thousands would otherwise hold"
          + " the origin's pages behind as many sitemap requests, each waiting for the origin's delay.";

  public static final String TDMREP_CONFIG = "fetcher.tdmrep";
  private static final String TDMREP_DOC =
      "Whether each origin's /.well-known/tdmrep.json (W3C TDM Reservation Protocol, at most 64 KiB) is read after its robots.txt and"
          + " as often: its rules join the usage preferences its documents carry. One request per origin per robots.txt period,"
          + " made only where robots.txt is read and could be (not under obey-robots-txt: false).";

  public static final String ADDRESS_ALLOW_CONFIG = "fetcher.address.allow";
  private static final String ADDRESS_ALLOW_DOC =
      "IP ranges (CIDR, comma-separated: 10.20.0.0/16,fd00:1::/64, or single addresses) the fetcher may connect to although the deny"
          + " list has them: an intranet to crawl, a proxy inside the cluster. Every connection (pages, HEAD, robots.txt and its redirects,"
          + " sitemaps, redirect hops) is checked on the address it is made to, after resolution.";

  public static final String ADDRESS_DENY_CONFIG = "fetcher.address.deny";
  private static final String ADDRESS_DENY_DOC =
      "IP ranges (CIDR, comma-separated) the fetcher may not connect to, beside those it never connects to unless allowed: loopback,"
          + " unspecified, private (RFC 1918), carrier-grade NAT (100.64.0.0/10), link-local (169.254.0.0/16, cloud metadata),"
          + " unique-local (fc00::/7), multicast, reserved and documentation ranges, and the NAT64, 6to4 and IPv4-compatible forms of"
          + " these. A URL whose host has no other address ends ADDRESS_DENIED, naming the address and the range, and is not retried.";

  /**
   * The largest body limit the setting takes: a fetched body travels in one record, which the
   * topics take up to {@link RecordSize#MAX_VALUE_BYTES}, with the response's headers beside it.
   */
  public static final long MAX_BODY_BYTES_LIMIT = RecordSize.MAX_VALUE_BYTES - 1024L * 1024;

  public static final ConfigDef DEFINITION =
      baseDefinition()
          .define(
              GROUP_ID_CONFIG,
              Type.STRING,
              "crawler-fetcher",
              new ConfigDef.NonEmptyString(),
              Importance.HIGH,
              GROUP_ID_DOC)
          .define(
              USER_AGENT_CONFIG,
              Type.STRING,
              "kafka-crawler/0.1",
              new ConfigDef.NonEmptyString(),
              Importance.HIGH,
              USER_AGENT_DOC)
          .define(
              MAX_BODY_BYTES_CONFIG,
              Type.LONG,
              10L * 1024 * 1024,
              Range.between(1024, MAX_BODY_BYTES_LIMIT),
              Importance.MEDIUM,
              MAX_BODY_BYTES_DOC)
          .define(
              CONNECT_TIMEOUT_MS_CONFIG,
              Type.LONG,
              10_000L,
              Range.between(100, 600_000),
              Importance.MEDIUM,
              CONNECT_TIMEOUT_MS_DOC)
          .define(
              REQUEST_TIMEOUT_MS_CONFIG,
              Type.LONG,
              30_000L,
              Range.between(100, 3_600_000),
              Importance.MEDIUM,
              REQUEST_TIMEOUT_MS_DOC)
          .define(
              MAX_CONNECTIONS_CONFIG,
              Type.INT,
              256,
              Range.between(1, 100_000),
              Importance.MEDIUM,
              MAX_CONNECTIONS_DOC)
          .define(
              MAX_PENDING_REQUESTS_CONFIG,
              Type.INT,
              10_000,
              Range.between(1, 10_000_000),
              Importance.LOW,
              MAX_PENDING_REQUESTS_DOC)
          .define(
              ROBOTS_TTL_MS_CONFIG,
              Type.LONG,
              30L * 60 * 1000,
              Range.between(1_000, 7L * 24 * 3600 * 1000),
              Importance.MEDIUM,
              ROBOTS_TTL_MS_DOC)
          .define(OBEY_ROBOTS_CONFIG, Type.BOOLEAN, true, Importance.MEDIUM, OBEY_ROBOTS_DOC)
          .define(
              ARCHIVE_EXCHANGES_CONFIG,
              Type.BOOLEAN,
              false,
              Importance.MEDIUM,
              ARCHIVE_EXCHANGES_DOC)
          .define(VERIFY_TLS_CONFIG, Type.BOOLEAN, false, Importance.LOW, VERIFY_TLS_DOC)
          .define(TRUSTSTORE_CONFIG, Type.STRING, "", Importance.LOW, TRUSTSTORE_DOC)
          .define(
              TRUSTSTORE_PASSWORD_CONFIG,
              Type.PASSWORD,
              null,
              Importance.LOW,
              TRUSTSTORE_PASSWORD_DOC)
          .define(
              IDLE_TIMEOUT_MS_CONFIG,
              Type.LONG,
              20_000L,
              Range.between(100, 3_600_000),
              Importance.LOW,
              IDLE_TIMEOUT_MS_DOC)
          .define(
              MAX_HOLD_MS_CONFIG,
              Type.LONG,
              120_000L,
              Range.between(1_000, 3_600_000),
              Importance.LOW,
              MAX_HOLD_MS_DOC)
          .define(
              BACKOFF_QUIET_MS_CONFIG,
              Type.LONG,
              60_000L,
              Range.between(0, 86_400_000),
              Importance.LOW,
              BACKOFF_QUIET_MS_DOC)
          .define(
              HANDOVER_TIMEOUT_MS_CONFIG,
              Type.LONG,
              35_000L,
              Range.between(0, 600_000),
              Importance.LOW,
              HANDOVER_TIMEOUT_MS_DOC)
          .define(INSTANCE_ID_CONFIG, Type.STRING, "", Importance.LOW, INSTANCE_ID_DOC)
          .define(
              MAX_BODY_BYTES_IN_FLIGHT_CONFIG,
              Type.LONG,
              0L,
              Range.atLeast(0),
              Importance.LOW,
              MAX_BODY_BYTES_IN_FLIGHT_DOC)
          .define(
              ROBOTS_MAX_SITEMAPS_CONFIG,
              Type.INT,
              RobotsPolicy.DEFAULT_MAX_SITEMAPS,
              Range.between(0, 1000),
              Importance.LOW,
              ROBOTS_MAX_SITEMAPS_DOC)
          .define(TDMREP_CONFIG, Type.BOOLEAN, true, Importance.LOW, TDMREP_DOC)
          .define(
              ADDRESS_ALLOW_CONFIG,
              Type.LIST,
              "",
              AddressRanges.VALIDATOR,
              Importance.HIGH,
              ADDRESS_ALLOW_DOC)
          .define(
              ADDRESS_DENY_CONFIG,
              Type.LIST,
              "",
              AddressRanges.VALIDATOR,
              Importance.MEDIUM,
              ADDRESS_DENY_DOC)
          .define(
              COMMIT_INTERVAL_MS_CONFIG,
              Type.LONG,
              1000L,
              Range.between(10, 600_000),
              Importance.LOW,
              COMMIT_INTERVAL_MS_DOC);

  public FetcherConfig(Map<String, String> settings) {
    super(DEFINITION, settings);
  }

  /** The settings of a service that fetches as the fetcher does, with settings of its own. */
  protected FetcherConfig(ConfigDef definition, Map<String, String> settings) {
    super(definition, settings);
  }

  /** The budget of body bytes in flight: the setting, or a quarter of the heap. */
  public BodyBudget bodyBudget() {
    long bytes = getLong(MAX_BODY_BYTES_IN_FLIGHT_CONFIG);
    return bytes > 0 ? new BodyBudget(bytes) : BodyBudget.ofHeap(Runtime.getRuntime().maxMemory());
  }

  /** The HTTP path's fetcher as the settings describe it (not yet built). */
  public JettyPageFetcher.Builder httpFetcher() {
    return JettyPageFetcher.builder(userAgent())
        .maxBodyBytes(getLong(MAX_BODY_BYTES_CONFIG))
        .timeouts(
            duration(CONNECT_TIMEOUT_MS_CONFIG),
            duration(IDLE_TIMEOUT_MS_CONFIG),
            duration(REQUEST_TIMEOUT_MS_CONFIG))
        .maxConnections(getInt(MAX_CONNECTIONS_CONFIG))
        .verifyTls(getBoolean(VERIFY_TLS_CONFIG))
        .addresses(addressPolicy())
        .bodies(bodyBudget())
        .recordsExchanges(getBoolean(ARCHIVE_EXCHANGES_CONFIG))
        .secrets(Secrets.ofEnvironment())
        .trustStore(trustStore());
  }

  /** Which addresses the fetcher may connect to: the defaults, with the settings' ranges. */
  public AddressPolicy addressPolicy() {
    return AddressPolicy.of(getList(ADDRESS_ALLOW_CONFIG), getList(ADDRESS_DENY_CONFIG));
  }

  /**
   * Checks that every element of a list setting is an address range, naming the first that is not.
   */
  private static final class AddressRanges implements ConfigDef.Validator {
    static final AddressRanges VALIDATOR = new AddressRanges();

    @Override
    public void ensureValid(String name, Object value) {
      if (value instanceof List<?> ranges) {
        for (Object range : ranges) {
          try {
            if (!range.toString().isBlank()) {
              AddressRange.parse(range.toString());
            }
          } catch (IllegalArgumentException e) {
            throw new ConfigException(name, range, e.getMessage());
          }
        }
      }
    }

    @Override
    public String toString() {
      return "IP ranges in CIDR notation";
    }
  }

  public String userAgent() {
    return getString(USER_AGENT_CONFIG);
  }

  /**
   * Whether this fetcher's name is set (then it is its static member name in the consumer group).
   */
  public boolean hasInstanceId() {
    return !getString(INSTANCE_ID_CONFIG).isBlank();
  }

  /** This fetcher's name: the setting, else the host name. */
  public String instanceId() {
    String id = getString(INSTANCE_ID_CONFIG);
    if (!id.isBlank()) {
      return id;
    }
    String host = System.getenv("HOSTNAME");
    if (host != null && !host.isBlank()) {
      return host;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "fetcher";
    }
  }

  public Duration duration(String key) {
    return Duration.ofMillis(getLong(key));
  }

  /** The trust store that requests with credentials verify TLS against, when one is set. */
  public Optional<TrustStore> trustStore() {
    String path = getString(TRUSTSTORE_CONFIG);
    if (path == null || path.isBlank()) {
      return Optional.empty();
    }
    Password password = getPassword(TRUSTSTORE_PASSWORD_CONFIG);
    return Optional.of(new TrustStore(Path.of(path), password == null ? "" : password.value()));
  }
}
