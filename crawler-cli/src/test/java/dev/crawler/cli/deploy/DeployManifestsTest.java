package dev.crawler.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.crawler.archive.ArchiveConfig;
import dev.crawler.committer.CommitterConfig;
import dev.crawler.common.config.ServiceConfig;
import dev.crawler.common.config.SettingsSource;
import dev.crawler.common.ops.ManagementServer;
import dev.crawler.common.streams.StreamsServiceConfig;
import dev.crawler.fetcher.FetcherConfig;
import dev.crawler.fetcher.domain.AddressPolicy;
import dev.crawler.fetcher.domain.AddressRange;
import dev.crawler.frontier.FrontierConfig;
import dev.crawler.frontier.rules.CrawlConfigLoader;
import dev.crawler.parser.ParserConfig;
import dev.crawler.render.RenderConfig;
import dev.crawler.schemas.CleanupPolicy;
import dev.crawler.schemas.TopicSpec;
import dev.crawler.schemas.Topics;
import dev.crawler.schemas.serde.SchemaRegistryClient;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.IPBlock;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.nodepool.KafkaNodePool;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Kubernetes manifests of {@code deploy/} checked against the code, without kubectl: every file
 * a kustomization names parses into its typed object (fabric8's Kubernetes and Prometheus Operator
 * models, Strimzi's API, a strict model of KEDA's ScaledObject) with no field the type does not
 * know; every variable a service container sets is a setting of that service with a valid value;
 * the topics are the catalogue's with its partitioning; probes ask the management endpoints on the
 * management port; autoscalers stay within the partition count; only fetchers reach the internet.
 */
class DeployManifestsTest {

  private static final Path DEPLOY = Path.of("..", "deploy").toAbsolutePath().normalize();
  private static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory()).enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** The kinds the manifests may use, each with its typed model. */
  private static final Map<String, Class<?>> KINDS =
      Map.ofEntries(
          Map.entry("Namespace", Namespace.class),
          Map.entry("ConfigMap", ConfigMap.class),
          Map.entry("Service", Service.class),
          Map.entry("Deployment", Deployment.class),
          Map.entry("StatefulSet", StatefulSet.class),
          Map.entry("PodDisruptionBudget", PodDisruptionBudget.class),
          Map.entry("HorizontalPodAutoscaler", HorizontalPodAutoscaler.class),
          Map.entry("NetworkPolicy", NetworkPolicy.class),
          Map.entry("ServiceMonitor", ServiceMonitor.class),
          Map.entry("Kafka", Kafka.class),
          Map.entry("KafkaNodePool", KafkaNodePool.class),
          Map.entry("KafkaTopic", KafkaTopic.class),
          Map.entry("ScaledObject", ScaledObject.class));

  /** The service each container name runs, with its settings. */
  private static final Map<String, ConfigDef> SERVICES =
      Map.of(
          "frontier",
          FrontierConfig.DEFINITION,
          "fetcher",
          FetcherConfig.DEFINITION,
          "parser",
          ParserConfig.DEFINITION,
          "committer",
          CommitterConfig.DEFINITION,
          "archive",
          ArchiveConfig.DEFINITION,
          "render",
          RenderConfig.DEFINITION);

  /** One YAML document of a manifest file, parsed. */
  record Manifest(Path file, JsonNode node, Object object) {

    String where() {
      return DEPLOY.relativize(file)
          + " "
          + node.path("kind").asText()
          + "/"
          + node.path("metadata").path("name").asText();
    }
  }

  private static final Map<Path, Kustomization> kustomizations = new LinkedHashMap<>();

  /** Every manifest file a kustomization names (resources and patch files). */
  private static final Set<Path> files = new TreeSet<>();

  private static final List<Manifest> manifests = new ArrayList<>();
  private static final Topics topics = Topics.create(new NoRegistry());

  @BeforeAll
  static void load() throws IOException {
    try (Stream<Path> all = Files.walk(DEPLOY)) {
      for (Path path :
          all.filter(p -> p.getFileName().toString().equals("kustomization.yaml"))
              .sorted()
              .toList()) {
        kustomizations.put(path.getParent(), YAML.readValue(path.toFile(), Kustomization.class));
      }
    }
    kustomizations.forEach(
        (dir, kustomization) -> {
          kustomization.resourcesOrEmpty().stream()
              .map(dir::resolve)
              .map(Path::normalize)
              .filter(Files::isRegularFile)
              .forEach(files::add);
          kustomization.patchesOrEmpty().stream()
              .filter(patch -> patch.path() != null)
              .map(patch -> dir.resolve(patch.path()).normalize())
              .forEach(files::add);
        });
    for (Path file : files) {
      try (MappingIterator<JsonNode> documents =
          YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
        while (documents.hasNext()) {
          JsonNode node = documents.next();
          if (node == null || node.isNull() || node.isEmpty()) {
            continue; // a comment before the first ---
          }
          Class<?> type = KINDS.get(node.path("kind").asText());
          // fabric8's and Strimzi's models keep unknown fields in additionalProperties (walked
          // below); the KEDA model has none, so the strict mapper refuses an unknown field there
          Object object =
              type == null ? null : YAML.convertValue(withoutPatchDirective(node), type);
          manifests.add(new Manifest(file, node, object));
        }
      }
    }
  }

  @Test
  void everyKustomizationNamesFilesThatExist() {
    assertThat(kustomizations.keySet())
        .extracting(dir -> DEPLOY.relativize(dir).toString())
        .contains(
            "base",
            "overlays/dev",
            "overlays/production",
            "components/keda",
            "components/strimzi-topics",
            "components/archive",
            "components/render",
            "components/render-keda");
    kustomizations.forEach(
        (dir, kustomization) -> {
          for (String resource : kustomization.resourcesOrEmpty()) {
            Path path = dir.resolve(resource).normalize();
            assertThat(
                    Files.isRegularFile(path)
                        || Files.isRegularFile(path.resolve("kustomization.yaml")))
                .as(dir + ": resource " + resource)
                .isTrue();
          }
          for (String component : kustomization.componentsOrEmpty()) {
            assertThat(kustomizations.get(dir.resolve(component).normalize()))
                .as(dir + ": component " + component)
                .isNotNull()
                .extracting(Kustomization::kind)
                .isEqualTo("Component");
          }
          for (Kustomization.Patch patch : kustomization.patchesOrEmpty()) {
            assertThat(
                    patch.path() != null
                        ? Files.isRegularFile(dir.resolve(patch.path()))
                        : patch.patch() != null && patch.target() != null)
                .as(dir + ": patch " + patch)
                .isTrue();
          }
          if (kustomization.configMapGenerator() != null) {
            kustomization
                .configMapGenerator()
                .forEach(
                    generator ->
                        generator
                            .files()
                            .forEach(
                                file ->
                                    assertThat(dir.resolve(file))
                                        .as(dir + ": " + file)
                                        .isRegularFile()));
          }
        });
  }

  @Test
  void everyManifestFileIsPartOfAKustomization() throws IOException {
    try (Stream<Path> all = Files.walk(DEPLOY)) {
      List<Path> yaml =
          all.filter(
                  p ->
                      p.toString().endsWith(".yaml")
                          && !p.getFileName().toString().equals("kustomization.yaml"))
              .map(Path::normalize)
              .toList();
      assertThat(files).containsAll(yaml);
    }
  }

  @Test
  void everyManifestIsOfAKnownKindAndApiVersion() {
    assertThat(manifests).hasSizeGreaterThan(30);
    for (Manifest manifest : manifests) {
      assertThat(manifest.object())
          .as(manifest.where() + ": a kind the deployment may use")
          .isNotNull();
      String expected;
      if (manifest.object() instanceof ScaledObject) {
        expected = "keda.sh/v1alpha1";
      } else if (manifest.object().getClass().getName().startsWith("io.strimzi.")) {
        // Strimzi's v1 API, the one Strimzi 1.x keeps (0.49 serves v1 and v1beta2)
        assertThat(staticField(manifest.object().getClass(), "VERSIONS"))
            .as(manifest.where())
            .asList()
            .contains("v1");
        expected = staticField(manifest.object().getClass(), "RESOURCE_GROUP") + "/v1";
      } else {
        expected =
            HasMetadata.getApiVersion(manifest.object().getClass().asSubclass(HasMetadata.class));
      }
      assertThat(manifest.node().path("apiVersion").asText())
          .as(manifest.where())
          .isEqualTo(expected);
    }
  }

  @Test
  void noManifestHasAFieldItsTypeDoesNotKnow() {
    List<String> unknown = new ArrayList<>();
    for (Manifest manifest : manifests) {
      walk(
          manifest.object(),
          manifest.where(),
          unknown,
          Collections.newSetFromMap(new IdentityHashMap<>()));
    }
    assertThat(unknown).isEmpty();
  }

  @Test
  void walkingFindsAnUnknownField() throws IOException {
    Deployment misspelt =
        YAML.readValue(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  replica: 2\n  template:\n    spec:\n      containers: [{name: c, imagePullPolicy: Always, livenesProbe: {}}]\n",
            Deployment.class);
    List<String> unknown = new ArrayList<>();
    walk(misspelt, "x", unknown, Collections.newSetFromMap(new IdentityHashMap<>()));
    assertThat(unknown)
        .hasSize(2)
        .anyMatch(problem -> problem.contains("replica"))
        .anyMatch(problem -> problem.contains("livenesProbe"));
  }

  @Test
  void theKedaModelRefusesAnUnknownField() {
    String misspelt =
        "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: x}\nspec:\n  scaleTargetRef: {name: x}\n  maxReplicas: 12\n";
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> YAML.readValue(misspelt, ScaledObject.class))
        .hasMessageContaining("maxReplicas");
  }

  @Test
  void everyVariableOfAServiceContainerIsASettingOfThatServiceWithAValidValue(@TempDir Path dir)
      throws IOException {
    Path crawlYaml = dir.resolve("crawl.yaml");
    Files.writeString(crawlYaml, crawlConfiguration());
    Map<String, Map<String, String>> literalByService = new HashMap<>();
    for (Map.Entry<Manifest, Container> entry : serviceContainers().entrySet()) {
      Container container = entry.getValue();
      ConfigDef definition = SERVICES.get(container.getName());
      for (EnvVar variable : container.getEnv()) {
        String where =
            entry.getKey().where() + " container " + container.getName() + " " + variable.getName();
        assertThat(variable.getName()).as(where).startsWith(SettingsSource.ENV_PREFIX);
        String key = SettingsSource.keyOf(variable.getName());
        assertThat(SettingsSource.variableOf(key))
            .as(where + ": maps back to the same variable")
            .isEqualTo(variable.getName());
        if (key.startsWith(ServiceConfig.KAFKA_PREFIX) && !definition.names().contains(key)) {
          assertThat(kafkaClientSettings(container.getName()))
              .as(where + ": a Kafka client setting")
              .contains(key.substring(ServiceConfig.KAFKA_PREFIX.length()));
        } else {
          assertThat(definition.names())
              .as(where + ": a setting of " + container.getName())
              .contains(key);
        }
        if (variable.getValue() != null) {
          String value =
              key.equals(FrontierConfig.CRAWL_CONFIG_CONFIG)
                  ? crawlYaml.toString()
                  : variable.getValue();
          literalByService
              .computeIfAbsent(container.getName(), name -> new LinkedHashMap<>())
              .put(key, value);
        } else {
          assertThat(variable.getValueFrom()).as(where).isNotNull();
        }
      }
    }
    assertThat(literalByService).containsOnlyKeys(SERVICES.keySet());
    // the services accept every value (a bad one throws, naming the setting)
    new FrontierConfig(literalByService.get("frontier"));
    new FetcherConfig(literalByService.get("fetcher"));
    new ParserConfig(literalByService.get("parser"));
    new CommitterConfig(literalByService.get("committer"));
    new RenderConfig(literalByService.get("render"));
  }

  @Test
  void theCrawlConfigurationOfTheConfigMapLoads() throws IOException {
    assertThat(
            CrawlConfigLoader.parse(crawlConfiguration(), "deploy/base/crawl-config.yaml").seeds())
        .isNotEmpty();
    Container frontier =
        serviceContainers().entrySet().stream()
            .filter(e -> e.getKey().file().endsWith("base/frontier.yaml"))
            .findFirst()
            .orElseThrow()
            .getValue();
    assertThat(env(frontier, FrontierConfig.CRAWL_CONFIG_CONFIG))
        .contains("/etc/crawler/crawl.yaml");
    assertThat(frontier.getVolumeMounts())
        .anyMatch(mount -> mount.getMountPath().equals("/etc/crawler"));
  }

  @Test
  void probesAskTheManagementEndpointsOnTheManagementPort() {
    int checked = 0;
    for (Map.Entry<Manifest, Container> entry : serviceContainers().entrySet()) {
      Container container = entry.getValue();
      if (container.getImage() == null) {
        continue; // a patch: the base declares the probes
      }
      String where = entry.getKey().where();
      int port =
          env(container, ServiceConfig.MANAGEMENT_PORT_CONFIG)
              .map(Integer::parseInt)
              .orElse(
                  (Integer)
                      FetcherConfig.DEFINITION
                          .defaultValues()
                          .get(ServiceConfig.MANAGEMENT_PORT_CONFIG));
      assertProbe(
          where + " liveness",
          container,
          container.getLivenessProbe(),
          ManagementServer.LIVE_PATH,
          port);
      assertProbe(
          where + " startup",
          container,
          container.getStartupProbe(),
          ManagementServer.LIVE_PATH,
          port);
      assertProbe(
          where + " readiness",
          container,
          container.getReadinessProbe(),
          ManagementServer.READY_PATH,
          port);
      assertThat(container.getResources().getRequests()).as(where).containsKeys("cpu", "memory");
      assertThat(container.getResources().getLimits()).as(where).containsKey("memory");
      checked++;
    }
    assertThat(checked).isEqualTo(6);
  }

  @Test
  void theServicesExposeTheManagementPortTheServiceMonitorScrapes() {
    List<Service> services =
        objects(Service.class)
            .filter(s -> s.getMetadata().getName().startsWith("crawler-"))
            .toList();
    // the four services, the archive writers of the archive component, the render tier's
    assertThat(services).hasSize(6);
    for (Service service : services) {
      assertThat(service.getSpec().getPorts())
          .extracting(ServicePort::getName)
          .contains("management");
      assertThat(service.getSpec().getPorts())
          .extracting(ServicePort::getTargetPort)
          .extracting(IntOrString::getStrVal)
          .contains("management");
    }
    ServiceMonitor monitor = objects(ServiceMonitor.class).findFirst().orElseThrow();
    assertThat(monitor.getSpec().getEndpoints())
        .allSatisfy(
            endpoint -> {
              assertThat(endpoint.getPort()).isEqualTo("management");
              assertThat(endpoint.getPath()).isEqualTo(ManagementServer.METRICS_PATH);
            });
    assertThat(monitor.getSpec().getSelector().getMatchExpressions().get(0).getValues())
        .containsExactlyInAnyOrderElementsOf(SERVICES.keySet());
  }

  @Test
  void everyTopicOfTheCatalogueHasAKafkaTopicPartitionedLikeItsPeers() {
    Map<String, KafkaTopic> byName = new HashMap<>();
    objects(KafkaTopic.class)
        .forEach(
            topic ->
                assertThat(byName.put(topic.getSpec().getTopicName(), topic))
                    .as("one KafkaTopic per topic")
                    .isNull());
    assertThat(byName.keySet())
        .containsExactlyInAnyOrderElementsOf(topics.all().stream().map(TopicSpec::name).toList());
    Set<Integer> originPartitions = new HashSet<>();
    for (TopicSpec<String, ?> spec : topics.all()) {
      KafkaTopic topic = byName.get(spec.name());
      int partitions = topic.getSpec().getPartitions();
      if (spec.fixedPartitions() > 0) {
        assertThat(partitions).as(spec.name()).isEqualTo(spec.fixedPartitions());
      }
      if (spec.coPartitionedByOrigin()) {
        originPartitions.add(partitions);
      }
      Map<String, Object> config = topic.getSpec().getConfig();
      spec.topicConfigs()
          .forEach(
              (key, value) ->
                  assertThat(String.valueOf(config.get(key)))
                      .as(spec.name() + " " + key)
                      .isEqualTo(value));
      if (spec.cleanupPolicy() == CleanupPolicy.DELETE) {
        assertThat(config).as(spec.name() + ": a retention").containsKey("retention.ms");
      }
    }
    assertThat(originPartitions)
        .as("the topics keyed by origin share one partition count")
        .hasSize(1);
  }

  @Test
  void fetcherAutoscalersStayWithinThePartitionCountOfTheFetchRequests() {
    int partitions =
        objects(KafkaTopic.class)
            .filter(t -> t.getSpec().getTopicName().equals(topics.fetchRequests().name()))
            .findFirst()
            .orElseThrow()
            .getSpec()
            .getPartitions();
    HorizontalPodAutoscaler cpu =
        objects(HorizontalPodAutoscaler.class)
            .filter(h -> h.getMetadata().getName().equals("crawler-fetcher") && h.getSpec() != null)
            .findFirst()
            .orElseThrow();
    assertThat(cpu.getSpec().getScaleTargetRef().getName()).isEqualTo("crawler-fetcher");
    assertThat(cpu.getSpec().getMaxReplicas()).isLessThanOrEqualTo(partitions);
    ScaledObject lag =
        objects(ScaledObject.class)
            .filter(scaled -> scaled.spec().scaleTargetRef().name().equals("crawler-fetcher"))
            .findFirst()
            .orElseThrow();
    assertThat(lag.spec().maxReplicaCount()).isLessThanOrEqualTo(partitions);
    ScaledObject.Trigger trigger = lag.spec().triggers().get(0);
    assertThat(trigger.type()).isEqualTo("kafka");
    assertThat(trigger.metadata())
        .containsEntry("topic", topics.fetchRequests().name())
        .containsEntry(
            "consumerGroup",
            (String) FetcherConfig.DEFINITION.defaultValues().get(FetcherConfig.GROUP_ID_CONFIG));
    ScaledObject render =
        objects(ScaledObject.class)
            .filter(scaled -> scaled.spec().scaleTargetRef().name().equals("crawler-render"))
            .findFirst()
            .orElseThrow();
    assertThat(render.spec().maxReplicaCount()).isLessThanOrEqualTo(partitions);
    assertThat(render.spec().triggers().get(0).metadata())
        .containsEntry("topic", topics.renderRequests().name())
        .containsEntry(
            "consumerGroup",
            (String) RenderConfig.DEFINITION.defaultValues().get(RenderConfig.GROUP_ID_CONFIG));
  }

  @Test
  void streamsServicesKeepTheirStateOnPersistentVolumesWithStandbyReplicas() {
    List<StatefulSet> sets =
        objects(StatefulSet.class)
            .filter(
                s -> s.getSpec().getTemplate().getSpec().getContainers().get(0).getImage() != null)
            .filter(s -> !s.getMetadata().getName().equals("crawler-archive"))
            .toList();
    assertThat(sets)
        .extracting(s -> s.getMetadata().getName())
        .containsExactlyInAnyOrder("crawler-frontier", "crawler-committer");
    for (StatefulSet set : sets) {
      Container container = set.getSpec().getTemplate().getSpec().getContainers().get(0);
      String stateDir = env(container, "state.dir").orElseThrow();
      String claim = set.getSpec().getVolumeClaimTemplates().get(0).getMetadata().getName();
      assertThat(container.getVolumeMounts())
          .anyMatch(
              mount -> mount.getName().equals(claim) && mount.getMountPath().equals(stateDir));
      assertThat(env(container, "standby.replicas").map(Integer::parseInt))
          .hasValueSatisfying(standby -> assertThat(standby).isPositive());
      assertThat(set.getSpec().getReplicas()).isGreaterThan(1);
    }
    assertThat(objects(PodDisruptionBudget.class)).hasSize(6);
  }

  @Test
  void everyServiceIsAStaticGroupMemberNamedAfterItsPod() {
    // the base manifests (the overlays patch them)
    List<Container> containers = new ArrayList<>();
    for (Manifest manifest : manifests) {
      if (manifest.file().startsWith(DEPLOY.resolve("base"))
          && manifest.object() instanceof StatefulSet set) {
        containers.add(set.getSpec().getTemplate().getSpec().getContainers().get(0));
      } else if (manifest.file().startsWith(DEPLOY.resolve("base"))
          && manifest.object() instanceof Deployment deployment) {
        containers.add(deployment.getSpec().getTemplate().getSpec().getContainers().get(0));
      }
    }
    List<Container> services =
        containers.stream()
            .filter(c -> c.getName().matches("frontier|parser|committer|fetcher"))
            .toList();
    assertThat(services)
        .extracting(Container::getName)
        .containsExactlyInAnyOrder("frontier", "parser", "committer", "fetcher");
    for (Container container : services) {
      String variable =
          SettingsSource.variableOf(
              container.getName().equals("fetcher")
                  ? FetcherConfig.INSTANCE_ID_CONFIG
                  : StreamsServiceConfig.INSTANCE_ID_CONFIG);
      assertThat(
              container.getEnv().stream()
                  .filter(v -> v.getName().equals(variable))
                  .map(
                      v ->
                          v.getValueFrom() == null
                              ? v.getValue()
                              : v.getValueFrom().getFieldRef().getFieldPath()))
          .as(container.getName())
          .containsExactly("metadata.name");
    }
  }

  /**
   * What each role's pods may reach, all the policies that select it taken together (policies add
   * up: one permissive rule anywhere opens a pod to everything): DNS at kube-dns only, no rule
   * without a destination, no destination meaning every pod of a namespace or of the cluster, an
   * address block only for fetchers' internet (excepting every range the fetcher's address guard
   * denies) or, limited to its ports, for a Kafka or a registry outside the cluster.
   */
  @ParameterizedTest
  @ValueSource(strings = {"frontier", "fetcher", "parser", "committer", "archive", "render"})
  void eachRoleMayReachWhatItNeedsAndNothingMore(String role) throws Exception {
    List<NetworkPolicyEgressRule> rules =
        objects(NetworkPolicy.class)
            .filter(policy -> selects(policy, role))
            .filter(policy -> policy.getSpec().getPolicyTypes().contains("Egress"))
            .flatMap(policy -> policy.getSpec().getEgress().stream())
            .toList();
    assertThat(rules).as(role).isNotEmpty();
    boolean resolves = false;
    boolean reachesInternet = false;
    for (NetworkPolicyEgressRule rule : rules) {
      assertThat(rule.getTo())
          .as(role + ": a rule without a destination allows every one")
          .isNotEmpty();
      for (NetworkPolicyPeer peer : rule.getTo()) {
        boolean everyNamespace =
            peer.getNamespaceSelector() != null && isEmpty(peer.getNamespaceSelector());
        boolean everyPod = peer.getPodSelector() == null || isEmpty(peer.getPodSelector());
        assertThat(
                peer.getIpBlock() == null
                    && everyPod
                    && (everyNamespace || peer.getNamespaceSelector() == null))
            .as(role + ": a peer that is every pod: " + peer)
            .isFalse();
        if (peer.getIpBlock() != null) {
          IPBlock block = peer.getIpBlock();
          boolean isEverything = block.getCidr().endsWith("/0");
          if (isEverything) {
            assertThat(role)
                .as("only fetchers and the render tier reach the internet")
                .isIn("fetcher", "render");
            assertExceptsEveryDeniedRange(block);
            reachesInternet = true;
          } else {
            assertThat(rule.getPorts())
                .as(role + ": an address block for Kafka or the registry, limited to ports")
                .isNotEmpty();
          }
        }
        if (peer.getPodSelector() != null
            && "kube-dns".equals(peer.getPodSelector().getMatchLabels().get("k8s-app"))) {
          resolves = true;
          assertThat(rule.getPorts())
              .extracting(port -> port.getPort().getIntVal())
              .containsOnly(53);
        }
      }
    }
    assertThat(resolves).as(role + " resolves names").isTrue();
    assertThat(reachesInternet)
        .as(role + " reaches the internet")
        .isEqualTo(role.equals("fetcher") || role.equals("render"));
  }

  /** The pods' own hardening: no API token, no service variables, scratch space bounded. */
  @Test
  void servicePodsCarryNoApiTokenNoServiceVariablesAndBoundedScratchSpace() {
    int checked = 0;
    for (Manifest manifest : manifests) {
      if (!manifest.file().startsWith(DEPLOY.resolve("base"))
          && !manifest.file().startsWith(DEPLOY.resolve("components"))) {
        continue; // overlays patch parts of the base's pods
      }
      PodTemplateSpec template = null;
      if (manifest.object() instanceof Deployment deployment) {
        template = deployment.getSpec().getTemplate();
      } else if (manifest.object() instanceof StatefulSet set) {
        template = set.getSpec().getTemplate();
      }
      if (template == null
          || template.getSpec().getContainers().stream()
              .noneMatch(c -> SERVICES.containsKey(c.getName()) && c.getImage() != null)) {
        continue; // not a service's pod, or a patch of one (the base declares the pod)
      }
      checked++;
      var spec = template.getSpec();
      assertThat(spec.getAutomountServiceAccountToken()).as(manifest.where()).isFalse();
      assertThat(spec.getEnableServiceLinks()).as(manifest.where()).isFalse();
      spec.getVolumes().stream()
          .filter(volume -> volume.getEmptyDir() != null)
          .forEach(
              volume ->
                  assertThat(volume.getEmptyDir().getSizeLimit())
                      .as(manifest.where() + " volume " + volume.getName())
                      .isNotNull());
    }
    assertThat(checked).isEqualTo(6);
  }

  private static boolean selects(NetworkPolicy policy, String role) {
    var selector = policy.getSpec().getPodSelector();
    if (selector.getMatchLabels() != null
        && role.equals(selector.getMatchLabels().get("app.kubernetes.io/component"))) {
      return true;
    }
    return selector.getMatchExpressions() != null
        && selector.getMatchExpressions().stream()
            .anyMatch(
                e ->
                    e.getKey().equals("app.kubernetes.io/component")
                        && e.getOperator().equals("In")
                        && e.getValues().contains(role));
  }

  private static boolean isEmpty(LabelSelector selector) {
    return (selector.getMatchLabels() == null || selector.getMatchLabels().isEmpty())
        && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty());
  }

  /** The block excepts every range of its family that the fetcher's address guard denies. */
  private static void assertExceptsEveryDeniedRange(IPBlock block) throws Exception {
    boolean v6 = block.getCidr().contains(":");
    List<AddressRange> excepted = block.getExcept().stream().map(AddressRange::parse).toList();
    for (AddressRange denied : AddressPolicy.DENIED_BY_DEFAULT) {
      if (denied.isIpv4() == v6) {
        continue;
      }
      InetAddress first = InetAddress.getByAddress(denied.network());
      assertThat(excepted)
          .as(block.getCidr() + " excepts " + denied)
          .anyMatch(range -> range.prefix() <= denied.prefix() && range.contains(first));
    }
  }

  @Test
  void devRunsKafkaInKraftNodePoolsAndARegistryTheServicesPointAt() {
    Kafka kafka = objects(Kafka.class).findFirst().orElseThrow();
    KafkaNodePool pool = objects(KafkaNodePool.class).findFirst().orElseThrow();
    assertThat(pool.getMetadata().getLabels())
        .containsEntry("strimzi.io/cluster", kafka.getMetadata().getName());
    assertThat(pool.getSpec().getRoles())
        .extracting(Object::toString)
        .containsExactlyInAnyOrder("CONTROLLER", "BROKER");
    assertThat(objects(KafkaTopic.class))
        .allMatch(
            topic ->
                topic
                    .getMetadata()
                    .getLabels()
                    .get("strimzi.io/cluster")
                    .equals(kafka.getMetadata().getName()));
    String bootstrap =
        kafka.getMetadata().getName()
            + "-kafka-bootstrap:"
            + kafka.getSpec().getKafka().getListeners().get(0).getPort();
    Map<String, String> dev = new HashMap<>();
    serviceContainers()
        .forEach(
            (manifest, container) -> {
              if (manifest.file().toString().contains("overlays/dev")) {
                env(container, ServiceConfig.BOOTSTRAP_SERVERS_CONFIG)
                    .ifPresent(value -> dev.put(container.getName(), value));
              }
            });
    assertThat(dev)
        .containsOnlyKeys(SERVICES.keySet())
        .allSatisfy((name, value) -> assertThat(value).isEqualTo(bootstrap));
    Service registry =
        objects(Service.class)
            .filter(s -> s.getMetadata().getName().equals("schema-registry"))
            .findFirst()
            .orElseThrow();
    serviceContainers()
        .forEach(
            (manifest, container) -> {
              if (manifest.file().toString().contains("overlays/dev")) {
                assertThat(env(container, ServiceConfig.SCHEMA_REGISTRY_URL_CONFIG))
                    .hasValue(
                        "http://"
                            + registry.getMetadata().getName()
                            + ":"
                            + registry.getSpec().getPorts().get(0).getPort()
                            + "/apis/ccompat/v7");
              }
            });
  }

  @Test
  void theDashboardShowsThroughputLatencyQueuesLagPausesAndDocuments() throws IOException {
    JsonNode dashboard =
        new ObjectMapper().readTree(DEPLOY.resolve("base/grafana/crawler-dashboard.json").toFile());
    String expressions =
        dashboard.findValuesAsText("expr").stream().collect(Collectors.joining("\n"));
    assertThat(expressions)
        .contains(
            "crawler_outcomes_total",
            "crawler_fetch_duration_seconds_bucket",
            "crawler_frontier_queued",
            "kafka_consumer_fetch_manager_records_lag_max",
            "crawler_frontier_origins_paused",
            "crawler_documents_total");
  }

  // ---------------------------------------------------------------------------------------------

  /** The containers of the four services in every workload manifest (bases and patches). */
  private static Map<Manifest, Container> serviceContainers() {
    Map<Manifest, Container> containers = new LinkedHashMap<>();
    for (Manifest manifest : manifests) {
      PodTemplateSpec template = null;
      if (manifest.object() instanceof Deployment deployment) {
        template = deployment.getSpec().getTemplate();
      } else if (manifest.object() instanceof StatefulSet set) {
        template = set.getSpec().getTemplate();
      }
      if (template != null) {
        for (Container container : template.getSpec().getContainers()) {
          if (SERVICES.containsKey(container.getName())) {
            containers.put(manifest, container);
          }
        }
      }
    }
    return containers;
  }

  private static Optional<String> env(Container container, String key) {
    return container.getEnv().stream()
        .filter(v -> v.getName().equals(SettingsSource.variableOf(key)))
        .map(EnvVar::getValue)
        .findFirst();
  }

  private static void assertProbe(
      String where, Container container, Probe probe, String path, int port) {
    assertThat(probe).as(where).isNotNull();
    assertThat(probe.getHttpGet().getPath()).as(where).isEqualTo(path);
    IntOrString target = probe.getHttpGet().getPort();
    int number =
        target.getIntVal() != null
            ? target.getIntVal()
            : container.getPorts().stream()
                .filter(p -> target.getStrVal().equals(p.getName()))
                .map(ContainerPort::getContainerPort)
                .findFirst()
                .orElseThrow(
                    () -> new AssertionError(where + ": no port named " + target.getStrVal()));
    assertThat(number).as(where + ": the management port").isEqualTo(port);
  }

  private static String crawlConfiguration() {
    return objects(ConfigMap.class)
        .filter(c -> c.getMetadata().getName().equals("crawler-crawl-config"))
        .findFirst()
        .orElseThrow()
        .getData()
        .get("crawl.yaml");
  }

  private static <T> Stream<T> objects(Class<T> type) {
    return manifests.stream().map(Manifest::object).filter(type::isInstance).map(type::cast);
  }

  /** The settings the Kafka clients of a service take, without the {@code kafka.} prefix. */
  private static Set<String> kafkaClientSettings(String service) {
    Set<String> names = new HashSet<>(ConsumerConfig.configNames());
    names.addAll(ProducerConfig.configNames());
    names.addAll(AdminClientConfig.configNames());
    if (!service.equals("fetcher")) {
      names.addAll(StreamsConfig.configDef().names());
    }
    return names;
  }

  /** The node, with kustomize's {@code $patch} directive (of a deleting patch) left out. */
  private static JsonNode withoutPatchDirective(JsonNode node) {
    JsonNode copy = node.deepCopy();
    if (copy instanceof ObjectNode object) {
      object.remove("$patch");
    }
    return copy;
  }

  /**
   * Collects every non-empty {@code additionalProperties} in a parsed object graph: where the typed
   * models put fields they do not know.
   */
  static void walk(Object value, String path, List<String> unknown, Set<Object> seen) {
    if (value == null
        || value instanceof String
        || value instanceof Number
        || value instanceof Boolean
        || value instanceof Enum<?>
        || !seen.add(value)) {
      return;
    }
    if (value instanceof Map<?, ?> map) {
      map.forEach((key, entry) -> walk(entry, path + "." + key, unknown, seen));
      return;
    }
    if (value instanceof Collection<?> collection) {
      int i = 0;
      for (Object element : collection) {
        walk(element, path + "[" + i++ + "]", unknown, seen);
      }
      return;
    }
    Class<?> type = value.getClass();
    String name = type.getName();
    if (!name.startsWith("io.fabric8.")
        && !name.startsWith("io.strimzi.")
        && !name.startsWith("dev.crawler.cli.deploy.")) {
      return;
    }
    if (type.isRecord()) {
      for (RecordComponent component : type.getRecordComponents()) {
        walk(
            invoke(component.getAccessor(), value),
            path + "." + component.getName(),
            unknown,
            seen);
      }
      return;
    }
    for (Method method : type.getMethods()) {
      if (Modifier.isStatic(method.getModifiers())
          || method.getParameterCount() > 0
          || method.getDeclaringClass() == Object.class
          || !method.getName().startsWith("get")) {
        continue;
      }
      Object property = invoke(method, value);
      if (method.getName().equals("getAdditionalProperties")) {
        if (property instanceof Map<?, ?> extra && !extra.isEmpty()) {
          unknown.add(path + ": unknown fields " + extra.keySet());
        }
      } else {
        walk(
            property,
            path
                + "."
                + Character.toLowerCase(method.getName().charAt(3))
                + method.getName().substring(4),
            unknown,
            seen);
      }
    }
  }

  private static Object staticField(Class<?> type, String name) {
    try {
      return type.getField(name).get(null);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(type + " has no " + name, e);
    }
  }

  private static Object invoke(Method method, Object target) {
    try {
      return method.invoke(target);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** The catalogue needs a registry client only to encode records; these tests encode none. */
  private static final class NoRegistry implements SchemaRegistryClient {
    @Override
    public int register(String subject, Schema schema) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Schema schemaById(int id) {
      throw new UnsupportedOperationException();
    }
  }
}
