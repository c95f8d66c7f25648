package dev.crawler.common.usage;

/** Where a usage statement was read. */
public enum UsageSource {
  /** A {@code Content-Usage} rule of robots.txt (draft-ietf-aipref-attach, section 4). */
  ROBOTS_TXT_CONTENT_USAGE,
  /** A {@code Content-Signal} line of robots.txt (Cloudflare's Content Signals Policy). */
  ROBOTS_TXT_CONTENT_SIGNAL,
  /** The {@code Content-Usage} HTTP response header (draft-ietf-aipref-attach, section 3). */
  HTTP_CONTENT_USAGE,
  /** The {@code tdm-reservation} and {@code tdm-policy} HTTP response headers (TDMRep). */
  TDMREP_HEADER,
  /** The {@code <meta name="tdm-reservation">} and {@code tdm-policy} tags of a page (TDMRep). */
  TDMREP_META,
  /** A rule of the origin's {@code /.well-known/tdmrep.json} (TDMRep). */
  TDMREP_FILE,
  /** {@code noai} or {@code noimageai} in {@code <meta name="robots">} or our agent's meta. */
  ROBOTS_META,
  /** {@code noai} or {@code noimageai} in the {@code X-Robots-Tag} header, generic or ours. */
  X_ROBOTS_TAG;

  /**
   * The rank of a TDMRep source in the protocol's processing order (TDMRep, "Processing priority"):
   * the file first, then the header, then the HTML metadata, each later one superseding the values
   * of the earlier ones; -1 for the sources of other protocols.
   */
  int tdmRepRank() {
    return switch (this) {
      case TDMREP_FILE -> 0;
      case TDMREP_HEADER -> 1;
      case TDMREP_META -> 2;
      default -> -1;
    };
  }
}
