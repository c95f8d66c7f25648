package dev.crawler.embedded.junit;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests the one {@link TestCluster} of this JVM: declare
 * {@code @ExtendWith(KafkaClusterExtension.class)} and take a {@code TestCluster} parameter in a
 * constructor, a {@code @BeforeAll} or a test method. The cluster starts on first use and stops
 * when the test run ends.
 */
public final class KafkaClusterExtension implements ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(KafkaClusterExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == TestCluster.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return cluster(context);
  }

  /**
   * The shared cluster, started on first use; closed with the root context at the end of the run.
   */
  public static TestCluster cluster(ExtensionContext context) {
    return context
        .getRoot()
        .getStore(NAMESPACE)
        .getOrComputeIfAbsent(TestCluster.class, k -> TestCluster.start(), TestCluster.class);
  }
}
