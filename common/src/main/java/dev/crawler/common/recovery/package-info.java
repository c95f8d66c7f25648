/**
 * What lets a service get itself out of trouble Kafka's own events leave behind: hanging
 * transactions found and aborted ({@link TransactionRecovery}), and a service that makes no
 * progress while it has work told apart from one that is merely idle ({@link ProgressWatch}).
 */
@NullMarked
package dev.crawler.common.recovery;

import org.jspecify.annotations.NullMarked;
