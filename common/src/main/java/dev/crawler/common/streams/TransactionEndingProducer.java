package dev.crawler.common.streams;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metrics.KafkaMetric;

/**
 * A stream thread's producer that ends the thread's {@link StreamTransactions} transaction as it
 * ends its own: committed when a commit returns, aborted when it aborts, fails to commit or is
 * closed. Everything else is the wrapped producer's.
 */
final class TransactionEndingProducer implements Producer<byte[], byte[]> {

  private final Producer<byte[], byte[]> producer;

  TransactionEndingProducer(Producer<byte[], byte[]> producer) {
    this.producer = producer;
  }

  @Override
  public void commitTransaction() {
    boolean isCommitted = false;
    try {
      producer.commitTransaction();
      isCommitted = true;
    } finally {
      StreamTransactions.end(isCommitted);
    }
  }

  @Override
  public void abortTransaction() {
    try {
      producer.abortTransaction();
    } finally {
      StreamTransactions.end(false);
    }
  }

  @Override
  public void close() {
    try {
      producer.close();
    } finally {
      StreamTransactions.end(false);
    }
  }

  @Override
  public void close(Duration timeout) {
    try {
      producer.close(timeout);
    } finally {
      StreamTransactions.end(false);
    }
  }

  @Override
  public void initTransactions() {
    producer.initTransactions();
  }

  @Override
  public void beginTransaction() {
    producer.beginTransaction();
  }

  @Override
  public void sendOffsetsToTransaction(
      Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata groupMetadata) {
    producer.sendOffsetsToTransaction(offsets, groupMetadata);
  }

  @Override
  public void registerMetricForSubscription(KafkaMetric metric) {
    producer.registerMetricForSubscription(metric);
  }

  @Override
  public void unregisterMetricFromSubscription(KafkaMetric metric) {
    producer.unregisterMetricFromSubscription(metric);
  }

  @Override
  public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
    return producer.send(record);
  }

  @Override
  public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
    return producer.send(record, callback);
  }

  @Override
  public void flush() {
    producer.flush();
  }

  @Override
  public List<PartitionInfo> partitionsFor(String topic) {
    return producer.partitionsFor(topic);
  }

  @Override
  public Map<MetricName, ? extends Metric> metrics() {
    return producer.metrics();
  }

  @Override
  public Uuid clientInstanceId(Duration timeout) {
    return producer.clientInstanceId(timeout);
  }
}
