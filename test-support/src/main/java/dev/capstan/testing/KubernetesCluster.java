package dev.capstan.testing;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.TestAbortedException;

/**
 * JUnit 5 extension that gives integration tests a real Kubernetes API server.
 *
 * <p>Parameters it resolves: {@link KubernetesClient} (admin), {@link TestNamespace} (a fresh
 * namespace per test class, deleted after it) and {@link ClusterAccess} (the kubeconfig, for
 * processes). The cluster is found once per test JVM (see {@link ClusterProvisioner}); with {@code
 * CI=true} no cluster is a failure, elsewhere it skips the tests with the reason.
 */
public final class KubernetesCluster implements BeforeAllCallback, ParameterResolver {
  private static final Namespace STORE = Namespace.create(KubernetesCluster.class);

  @Override
  public void beforeAll(ExtensionContext context) {
    ClassState state = classState(context);
    state.namespace();
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    return type == KubernetesClient.class
        || type == TestNamespace.class
        || type == ClusterAccess.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    SharedCluster cluster = sharedCluster(context);
    if (type == KubernetesClient.class) {
      return cluster.client();
    }
    if (type == ClusterAccess.class) {
      return cluster.access();
    }
    if (type == TestNamespace.class) {
      return classState(context).namespace();
    }
    throw new ParameterResolutionException("unsupported parameter " + type);
  }

  private static SharedCluster sharedCluster(ExtensionContext context) {
    ExtensionContext.Store root = context.getRoot().getStore(STORE);
    SharedCluster cluster =
        root.getOrComputeIfAbsent(
            SharedCluster.class, k -> SharedCluster.start(), SharedCluster.class);
    return cluster.orAbort();
  }

  private static ClassState classState(ExtensionContext context) {
    ExtensionContext classContext =
        context.getTestClass().isPresent() && context.getTestMethod().isPresent()
            ? context.getParent().orElse(context)
            : context;
    return classContext
        .getStore(STORE)
        .getOrComputeIfAbsent(
            ClassState.class,
            k -> new ClassState(sharedCluster(context), classContext.getRequiredTestClass()),
            ClassState.class);
  }

  /** The cluster of this test JVM, or why there is none. Closed when the JVM's tests end. */
  record SharedCluster(
      ClusterProvisioner.Provisioned provisioned, KubernetesClient client, RuntimeException failure)
      implements ExtensionContext.Store.CloseableResource, AutoCloseable {

    static SharedCluster start() {
      try {
        ClusterProvisioner.Provisioned provisioned =
            new ClusterProvisioner(System.getenv(), RepoRoot.find(), new ProcessRunner())
                .provision();
        KubernetesClient client = ClusterAccess.openClient(provisioned.access().kubeconfig());
        return new SharedCluster(provisioned, client, null);
      } catch (IOException e) {
        return new SharedCluster(
            null, null, new NoClusterException("cannot read kubeconfig: " + e.getMessage()));
      } catch (NoClusterException e) {
        return new SharedCluster(null, null, e);
      }
    }

    SharedCluster orAbort() {
      if (failure == null) {
        return this;
      }
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        throw failure;
      }
      throw new TestAbortedException(failure.getMessage());
    }

    ClusterAccess access() {
      return provisioned.access();
    }

    @Override
    public void close() throws Exception {
      if (client != null) {
        client.close();
      }
      if (provisioned != null) {
        provisioned.onClose().close();
      }
    }
  }

  /** The namespace of one test class, created on first use and deleted after the class. */
  static final class ClassState implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    private static final Duration SERVICE_ACCOUNT_WAIT = Duration.ofSeconds(60);
    private final SharedCluster cluster;
    private final Class<?> testClass;
    private TestNamespace namespace;

    ClassState(SharedCluster cluster, Class<?> testClass) {
      this.cluster = cluster;
      this.testClass = testClass;
    }

    synchronized TestNamespace namespace() {
      if (namespace == null) {
        namespace = create();
      }
      return namespace;
    }

    private TestNamespace create() {
      String name = namespaceName(testClass);
      KubernetesClient client = cluster.client();
      TestNamespace created = TestNamespace.create(client, name);
      // Pods in a brand-new namespace are rejected until its default service account exists.
      client
          .serviceAccounts()
          .inNamespace(name)
          .withName("default")
          .waitUntilCondition(sa -> sa != null, SERVICE_ACCOUNT_WAIT.toSeconds(), TimeUnit.SECONDS);
      return created;
    }

    static String namespaceName(Class<?> testClass) {
      String base = testClass.getSimpleName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
      if (base.length() > 40) {
        base = base.substring(0, 40);
      }
      String suffix = Integer.toString(ThreadLocalRandom.current().nextInt(1 << 24, 1 << 30), 36);
      return base + "-" + suffix;
    }

    @Override
    public void close() {
      if (namespace != null) {
        cluster.client().namespaces().withName(namespace.name()).delete();
      }
    }
  }
}
