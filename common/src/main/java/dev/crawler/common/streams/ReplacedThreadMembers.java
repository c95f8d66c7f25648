package dev.crawler.common.streams;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a replaced stream thread's member out of the consumer group, under static membership.
 *
 * <p>Kafka Streams closes a stream thread it replaces after a failure without leaving the group,
 * and the new thread joins under another name ({@code instance-2} for {@code instance-1}). The
 * group then counts the dead member until its session times out ({@code session.timeout.ms}), and
 * the rebalance that gives the failed thread's tasks to the new thread, or to the other instances,
 * waits for it: every instance of the service stands still meanwhile. A broker's crash fences the
 * transactions open on it and fails stream threads of several instances at once, so this wait came
 * on top of every broker failover.
 *
 * <p>Once the failed thread has ended (its consumer is closed and sends no heartbeat any more), its
 * member ({@code group.instance.id} {@code <instance.id>-<thread index>}) is removed with the admin
 * client, as Kafka Streams does for a thread removed on purpose, and the group rebalances at once.
 * Not when a live thread has taken the index meanwhile. A member without a name (no {@code
 * instance.id}) cannot be named to the broker, and times out as before.
 */
final class ReplacedThreadMembers implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ReplacedThreadMembers.class);

  /** How long a failed thread may take to close its tasks and clients before its member goes. */
  static final Duration THREAD_END_TIMEOUT = Duration.ofSeconds(30);

  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(15);

  /** A stream thread's name ends with its index, which names its member too. */
  private static final Pattern STREAM_THREAD = Pattern.compile("-StreamThread-(\\d+)$");

  private final String service;
  private final Admin admin;
  private final String groupId;
  private final String instanceId;
  private final Supplier<Set<String>> liveThreadNames;
  private final ExecutorService removals =
      Executors.newSingleThreadExecutor(
          task -> {
            Thread thread = new Thread(task, "replaced-thread-members");
            thread.setDaemon(true);
            return thread;
          });

  /**
   * @param groupId the consumer group ({@code application.id})
   * @param instanceId the instance's {@code instance.id}; empty without static membership
   * @param liveThreadNames the names of the instance's stream threads that have not ended
   */
  ReplacedThreadMembers(
      String service,
      Admin admin,
      String groupId,
      String instanceId,
      Supplier<Set<String>> liveThreadNames) {
    this.service = service;
    this.admin = admin;
    this.groupId = groupId;
    this.instanceId = instanceId;
    this.liveThreadNames = liveThreadNames;
  }

  /**
   * The stream thread {@code failed} (the thread calling, from the uncaught exception handler) is
   * being replaced: its member leaves the group once it has ended. Returns at once.
   */
  void replacing(Thread failed) {
    Matcher stream = STREAM_THREAD.matcher(failed.getName());
    if (instanceId.isEmpty() || !stream.find()) {
      return; // no static membership, or the global thread (not a group member)
    }
    String member = instanceId + "-" + stream.group(1);
    removals.execute(() -> remove(failed, member));
  }

  private void remove(Thread failed, String member) {
    try {
      failed.join(THREAD_END_TIMEOUT.toMillis());
      if (liveThreadNames.get().contains(failed.getName())) {
        return; // a new thread took its index and its member
      }
      admin
          .removeMembersFromConsumerGroup(
              groupId,
              new RemoveMembersFromConsumerGroupOptions(List.of(new MemberToRemove(member))))
          .all()
          .get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      LOG.info(
          "{}: member {} of the failed stream thread left group {}: its tasks move now",
          service,
          member,
          groupId);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      // gone already (its session ended), or the broker cannot be reached: the session timeout
      // takes it out as it would have
      LOG.info(
          "{}: member {} of the failed stream thread not removed from group {} ({}); it leaves when"
              + " its session times out",
          service,
          member,
          groupId,
          e instanceof ExecutionException ? e.getCause() : e);
    }
  }

  @Override
  public void close() {
    removals.shutdownNow();
  }
}
