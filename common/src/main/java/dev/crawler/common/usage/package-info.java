/**
 * A site's stated preferences about how its content is used by AI and text-and-data-mining systems
 * (IETF aipref Content-Usage, Cloudflare Content-Signal, W3C TDMRep, noai/noimageai), read from
 * robots.txt, HTTP headers, HTML meta tags and {@code /.well-known/tdmrep.json}: pure parsers,
 * bytes and strings in, {@link dev.crawler.common.usage.UsagePreferences} out, each statement kept
 * with where it came from.
 */
@NullMarked
package dev.crawler.common.usage;

import org.jspecify.annotations.NullMarked;
