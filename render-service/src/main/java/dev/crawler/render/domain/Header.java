package dev.crawler.render.domain;

/** A header field: its name as written, its value. */
public record Header(String name, String value) {}
