package dev.crawler.common.streams;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The services' key-value state stores: in RocksDB, logged to a changelog, and cached or not. The
 * record cache keeps the latest value of each key written since the last commit and writes it to
 * RocksDB and the changelog once, at the commit (in the same transaction), so a key written for
 * every record, such as an origin's state for each of its URLs, costs one write per commit instead
 * of one per record. Reads of recently written keys are served from the cache. A store whose keys
 * are written about once each (a document's state, keyed by its URL) gains nothing from it and pays
 * for it on every read and write: a sorted map of byte-array keys, compared byte by byte.
 */
public final class StateStores {

  private StateStores() {}

  /** Adds a persistent, logged, cached store named {@code name} for the processors named. */
  public static <K, V> void add(
      Topology topology,
      String name,
      Serde<K> keySerde,
      Serde<V> valueSerde,
      String... processors) {
    topology.addStateStore(builder(name, keySerde, valueSerde).withCachingEnabled(), processors);
  }

  /**
   * Adds a persistent, logged store named {@code name} for the processors named, without a record
   * cache.
   */
  public static <K, V> void addUncached(
      Topology topology,
      String name,
      Serde<K> keySerde,
      Serde<V> valueSerde,
      String... processors) {
    topology.addStateStore(builder(name, keySerde, valueSerde).withCachingDisabled(), processors);
  }

  /**
   * Loads RocksDB's native library now (idempotent; {@link StateStoreLibrary} says from where): 15
   * MB linked, and unpacked from its jar unless a copy is kept, 0.1 s of CPU the first task of a
   * process would otherwise wait for.
   */
  public static void loadLibrary() {
    StateStoreLibrary.load();
  }

  /**
   * Whether a store of this name was made here: a persistent key-value store logged to a changelog
   * with no configuration of its own ({@link Changelogs} creates such changelogs ahead).
   */
  static boolean isLoggedKeyValue(String name) {
    return LOGGED.contains(name);
  }

  /** The names of the stores made here, in any topology of this JVM. */
  private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();

  private static <K, V> StoreBuilder<KeyValueStore<K, V>> builder(
      String name, Serde<K> keySerde, Serde<V> valueSerde) {
    LOGGED.add(name);
    return Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(name), keySerde, valueSerde);
  }
}
