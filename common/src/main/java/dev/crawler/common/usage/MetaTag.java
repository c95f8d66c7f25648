package dev.crawler.common.usage;

/**
 * A {@code <meta>} element of a page, as the parser extracts it.
 *
 * @param name its {@code name} attribute
 * @param content its {@code content} attribute
 */
public record MetaTag(String name, String content) {}
