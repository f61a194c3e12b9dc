package dev.capstan.testing;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.opentest4j.TestAbortedException;

/**
 * JUnit 5 extension that gives integration tests a second Kubernetes cluster, besides the one of
 * {@link KubernetesCluster}: it resolves {@link Access}. On the local control plane the second one
 * is started on demand (see {@link RemoteClusterProvisioner}) and a failure to start it fails the
 * test; with an external first cluster and no {@code CAPSTAN_TEST_REMOTE_KUBECONFIG} the test is
 * skipped and says so.
 */
public final class RemoteCluster implements ParameterResolver {
  private static final ExtensionContext.Namespace STORE =
      ExtensionContext.Namespace.create(RemoteCluster.class);

  /**
   * The second cluster: its admin kubeconfig and client.
   *
   * @param kubeconfig its admin kubeconfig (client certificates, server on 127.0.0.1)
   */
  public record Access(Path kubeconfig, KubernetesClient client) {
    /** Creates {@code name} there if it does not exist (the Kustomization's namespace must). */
    public void ensureNamespace(String name) {
      if (client.namespaces().withName(name).get() == null) {
        TestNamespace.create(client, name);
      }
    }

    /** The kubeconfig's text. */
    public String kubeconfigText() {
      try {
        return Files.readString(kubeconfig);
      } catch (IOException e) {
        throw new IllegalStateException("cannot read " + kubeconfig, e);
      }
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == Access.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context
        .getRoot()
        .getStore(STORE)
        .getOrComputeIfAbsent(Shared.class, k -> Shared.start(), Shared.class)
        .access();
  }

  /** The second cluster of this test JVM, or why there is none. */
  record Shared(Access started, RuntimeException failure)
      implements ExtensionContext.Store.CloseableResource, AutoCloseable {

    static Shared start() {
      try {
        Path kubeconfig =
            new RemoteClusterProvisioner(System.getenv(), RepoRoot.find(), new ProcessRunner())
                .provision();
        return new Shared(new Access(kubeconfig, ClusterAccess.openClient(kubeconfig)), null);
      } catch (RemoteClusterProvisioner.NoRemoteClusterException e) {
        return new Shared(null, new TestAbortedException("no second cluster: " + e.getMessage()));
      } catch (IOException e) {
        return new Shared(
            null,
            new NoClusterException(
                "cannot read the second cluster's kubeconfig: " + e.getMessage()));
      } catch (NoClusterException e) {
        return new Shared(null, e);
      }
    }

    Access access() {
      if (failure != null) {
        throw failure;
      }
      return started;
    }

    @Override
    public void close() {
      if (started != null) {
        started.client().close();
      }
    }
  }
}
