package dev.capstan.cli.install;

import io.fabric8.kubernetes.client.KubernetesClient;

/** Removes the cluster-wide RBAC an install made; the CRDs stay, as other tests use them. */
public final class InstallCleanup {

  private InstallCleanup() {}

  public static void removeClusterWide(KubernetesClient client) {
    for (String binding :
        new String[] {"capstan-apply", "capstan-controller", "capstan-impersonate"}) {
      client.rbac().clusterRoleBindings().withName(binding).delete();
    }
    client.rbac().clusterRoles().withName("capstan-controller").delete();
    client.rbac().clusterRoles().withName("capstan-impersonate").delete();
  }
}
