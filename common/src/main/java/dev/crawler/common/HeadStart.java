package dev.crawler.common;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Work done ahead of its first need, on a thread of its own while a service starts (a library
 * loaded, tables read, topics created), so that the first record does not wait for it. Only a head
 * start: the work's first real use does it again when it failed here, so a failure is logged, not
 * thrown, and the thread (a daemon) never keeps the JVM from ending.
 */
public final class HeadStart {

  private static final Logger LOG = LoggerFactory.getLogger(HeadStart.class);

  private HeadStart() {}

  /** Starts {@code work} on a daemon thread called {@code name}; returns that thread. */
  public static Thread run(String name, Runnable work) {
    Thread thread =
        new Thread(
            () -> {
              try {
                work.run();
              } catch (RuntimeException | Error e) { // UnsatisfiedLinkError, say
                LOG.warn("{} failed ahead of its first use: {}", name, e.toString());
              }
            },
            name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }
}
