package dev.crawler.cli.deploy;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.List;
import java.util.Map;

/**
 * KEDA's {@code ScaledObject} (keda.sh/v1alpha1), the part of its schema the manifests use: no
 * typed model of it is published on Maven Central. It has no additionalProperties: read with
 * FAIL_ON_UNKNOWN_PROPERTIES, an unknown field fails to parse.
 */
record ScaledObject(String apiVersion, String kind, ObjectMeta metadata, Spec spec) {

  record Spec(
      TargetRef scaleTargetRef,
      Integer minReplicaCount,
      Integer maxReplicaCount,
      Integer pollingInterval,
      Integer cooldownPeriod,
      Advanced advanced,
      List<Trigger> triggers) {}

  record TargetRef(String name, String kind, String apiVersion) {}

  record Advanced(HpaConfig horizontalPodAutoscalerConfig) {}

  record HpaConfig(
      io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBehavior behavior) {}

  /**
   * A scaler: for {@code kafka}, bootstrapServers, consumerGroup, topic, lagThreshold… as strings.
   */
  record Trigger(String type, Map<String, String> metadata) {}
}
