package dev.crawler.common.streams;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.jspecify.annotations.Nullable;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * One bound on the native memory of every RocksDB state store of this process: the stores share one
 * block cache, and their memtables are charged to it ({@code WriteBufferManager}), as Kafka
 * Streams' memory-management guide describes. Without it each store takes a 50 MB block cache and
 * up to three 16 MB memtables of its own, so a frontier of 6 stores on 4 partitions may reach 2.5
 * GB, and more with each partition it takes over; with it, memory stays at the bound however many
 * URLs the stores hold (they are on disk) and however many partitions the instance owns.
 *
 * <p>The bound is read from the Streams configuration's {@value #MEMORY_BYTES_CONFIG} the first
 * time a store opens; the cache is the process's, shared by every Streams application in it (the
 * {@code crawler crawl} command runs the frontier and the committer in one JVM). Thread-safe.
 */
public final class BoundedStateMemory implements RocksDBConfigSetter {

  /** The Streams configuration key (not a Kafka one) carrying the bound, in bytes. */
  public static final String MEMORY_BYTES_CONFIG = "crawler.state.memory.bytes";

  /** The share of the cache memtables may take. */
  static final double MEMTABLE_SHARE = 0.5;

  /** The share of the cache kept for index and filter blocks, which every read needs. */
  static final double INDEX_AND_FILTER_SHARE = 0.1;

  private static @Nullable Shared shared;

  /** The cache and the memtable budget every store of the process uses. */
  private record Shared(Cache cache, WriteBufferManager writeBuffers) {}

  @Override
  public void setConfig(String storeName, Options options, Map<String, Object> configs) {
    Shared memory = shared(bytesOf(configs.get(MEMORY_BYTES_CONFIG)));
    BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
    table.setBlockCache(memory.cache());
    table.setCacheIndexAndFilterBlocks(true);
    table.setCacheIndexAndFilterBlocksWithHighPriority(true);
    table.setPinTopLevelIndexAndFilter(true);
    options.setWriteBufferManager(memory.writeBuffers());
    options.setTableFormatConfig(table);
  }

  @Override
  public void close(String storeName, Options options) {
    // the cache and the write-buffer manager are shared
    // by every store: they live as long as the process
  }

  private static synchronized Shared shared(long bytes) {
    if (shared == null) {
      Cache cache = new LRUCache(bytes, -1, false, INDEX_AND_FILTER_SHARE);
      shared = new Shared(cache, new WriteBufferManager((long) (bytes * MEMTABLE_SHARE), cache));
    }
    return shared;
  }

  private static long bytesOf(@Nullable Object value) {
    if (value instanceof Number number) {
      return number.longValue();
    }
    if (value instanceof String text) {
      return Long.parseLong(text.strip());
    }
    return StreamsServiceConfig.DEFAULT_STATE_MEMORY_MB * 1024 * 1024;
  }
}
