package dev.capstan.testing;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Installs CRDs the way {@code kubectl apply} would, and waits until they are served: the committed
 * ones from {@code deploy/crds}, or a test's own.
 */
public final class CapstanCrds {
  private CapstanCrds() {}

  /** Server-side applies every CRD under deploy/crds and waits until each is Established. */
  public static List<CustomResourceDefinition> install(KubernetesClient client) {
    Path dir = RepoRoot.find().resolve("deploy/crds");
    try (Stream<Path> files = Files.list(dir)) {
      List<CustomResourceDefinition> crds =
          files
              .filter(f -> f.toString().endsWith(".yaml"))
              .sorted()
              .map(f -> load(client, f))
              .toList();
      crds.forEach(crd -> apply(client, crd));
      crds.forEach(crd -> awaitEstablished(client, crd));
      return crds;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + dir, e);
    }
  }

  /** Server-side applies one CRD given as YAML and waits until it is Established. */
  public static CustomResourceDefinition installYaml(KubernetesClient client, String yaml) {
    CustomResourceDefinition crd =
        client.getKubernetesSerialization().unmarshal(yaml, CustomResourceDefinition.class);
    apply(client, crd);
    awaitEstablished(client, crd);
    return crd;
  }

  private static void apply(KubernetesClient client, CustomResourceDefinition crd) {
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .resource(crd)
        .fieldManager("capstan-tests")
        .forceConflicts()
        .serverSideApply();
  }

  private static void awaitEstablished(KubernetesClient client, CustomResourceDefinition crd) {
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(crd.getMetadata().getName())
        .waitUntilCondition(CapstanCrds::established, 60, TimeUnit.SECONDS);
  }

  private static CustomResourceDefinition load(KubernetesClient client, Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return client.getKubernetesSerialization().unmarshal(in, CustomResourceDefinition.class);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static boolean established(CustomResourceDefinition crd) {
    return crd != null
        && crd.getStatus() != null
        && crd.getStatus().getConditions() != null
        && crd.getStatus().getConditions().stream()
            .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }
}
