package dev.capstan.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.applier.kustomize.BuildLimits;
import dev.capstan.applier.kustomize.BuildOptions;
import dev.capstan.applier.kustomize.BuildResult;
import dev.capstan.applier.kustomize.BuildSandbox;
import dev.capstan.applier.kustomize.ManifestBuilder;
import dev.capstan.testing.RepoRoot;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The multi-tenant install, built by the same kustomize the engine runs, starts the engine locked
 * down: Kustomizations without a service account act as their namespace's {@code default} one, no
 * sourceRef or dependsOn may leave a namespace, and no ExternalArtifact URL is downloaded until the
 * operator lists its server.
 */
class MultiTenantLockdownTest {

  @Test
  void theMultiTenantInstallRunsTheEngineWithTheLockdownFlags() {
    List<String> args = engineArgs("install/multi-tenant");
    RunCommand run = new RunCommand();
    new CommandLine(run).parseArgs(args.subList(1, args.size()).toArray(String[]::new));
    assertEquals("default", run.defaultServiceAccount);
    assertTrue(run.noCrossNamespaceRefs);
    assertTrue(run.noUnlistedArtifactUrls);
    assertEquals(List.of(), run.artifactUrlAllowPrefixes);
  }

  @Test
  void theSingleTenantInstallKeepsTheEngineUnlocked() {
    List<String> args = engineArgs("install/engine");
    RunCommand run = new RunCommand();
    new CommandLine(run).parseArgs(args.subList(1, args.size()).toArray(String[]::new));
    assertNull(run.defaultServiceAccount);
    assertFalse(run.noCrossNamespaceRefs);
    assertFalse(run.noUnlistedArtifactUrls);
  }

  private static List<String> engineArgs(String path) {
    try (ManifestBuilder builder =
        new ManifestBuilder(
            BuildLimits.oneShot(), BuildSandbox.forUser(RepoRoot.find().resolve("deploy")))) {
      BuildResult result =
          builder.build(RepoRoot.find().resolve("deploy"), path, BuildOptions.none());
      List<GenericKubernetesResource> objects =
          assertInstanceOf(BuildResult.Built.class, result).objects();
      GenericKubernetesResource engine =
          objects.stream()
              .filter(
                  o ->
                      "Deployment".equals(o.getKind())
                          && "capstan".equals(o.getMetadata().getName()))
              .findFirst()
              .orElseThrow();
      Deployment deployment = new KubernetesSerialization().convertValue(engine, Deployment.class);
      List<String> args =
          deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs();
      assertEquals("run", args.get(0));
      return args;
    }
  }
}
