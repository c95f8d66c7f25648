package dev.crawler.parser.domain;

/**
 * Extracts the content of files that are not web pages (import step), each within a bounded time
 * and memory: a file that cannot be read, whatever the reason, is {@link FileImport.Failed} and
 * never an exception. Implementations are thread-safe.
 */
public interface FileImporter extends AutoCloseable {

  /**
   * Imports the file.
   *
   * @param url where it was fetched from (named in logs only)
   * @param mediaType the media type it was served as, lower-case, without parameters
   * @param body its bytes
   */
  FileImport importFile(String url, String mediaType, byte[] body);

  /** Stops whatever the importer runs (its processes); files imported after this fail. */
  @Override
  void close();
}
