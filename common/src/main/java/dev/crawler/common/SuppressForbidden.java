package dev.crawler.common;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a deliberate call of an API the build forbids (the forbiddenapis check in the parent POM),
 * such as {@code System.exit} in a service's launcher. Say why in {@link #value()}.
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.TYPE, ElementType.FIELD})
public @interface SuppressForbidden {

  /** Why the forbidden API is the right call here. */
  String value();
}
