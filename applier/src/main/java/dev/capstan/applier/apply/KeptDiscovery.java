package dev.capstan.applier.apply;

import dev.capstan.kube.ApiVersion;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.URL;
import java.util.List;
import java.util.Optional;

/**
 * Discovery answers kept between {@link ResourceCatalog}s, so that applying again does not ask the
 * API server what it already said: on disk between runs of the command line ({@link
 * DiscoveryCache}), or in memory for a while in the engine ({@link RecentDiscovery}). Only built-in
 * groups are kept (the core group, groups without a dot, and {@code *.k8s.io}): they change with
 * the API server's version only, while a CRD's group can be deleted or change scope at any time, so
 * those are always asked live. A kind missing from a kept answer is looked up live again by the
 * catalog. Keeping is an optimisation only: an answer that cannot be kept or read is as if absent.
 */
public sealed interface KeptDiscovery permits DiscoveryCache, RecentDiscovery {

  /** The kept answer for {@code apiVersion} of {@code server}, if it is still fresh. */
  Optional<List<APIResource>> read(URL server, String apiVersion, KubernetesSerialization json);

  /** Keeps a live answer of {@code server} for {@code apiVersion}. */
  void write(
      URL server, String apiVersion, List<APIResource> resources, KubernetesSerialization json);

  /** Whether answers for this group/version are kept: built-in groups only. */
  static boolean keeps(String apiVersion) {
    String group = ApiVersion.of(apiVersion).group();
    return group.isEmpty() || !group.contains(".") || group.endsWith(".k8s.io");
  }
}
