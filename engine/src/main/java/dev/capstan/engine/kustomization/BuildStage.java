package dev.capstan.engine.kustomization;

import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.applier.kustomize.BuildErrorKind;
import dev.capstan.applier.kustomize.BuildResult;
import dev.capstan.applier.kustomize.HeldRoom;
import dev.capstan.applier.kustomize.ManifestBuilder;
import dev.capstan.decryption.DecryptedInputs;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.engine.conditions.Reason;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The build stage: a Kustomization's path of an artifact built with its spec, SOPS decryption
 * around it. The Secrets and ConfigMaps the spec names are read with the client given.
 */
final class BuildStage {
  private static final Set<BuildErrorKind> TRANSIENT_BUILD_ERRORS =
      Set.of(
          BuildErrorKind.SUBSTITUTION,
          BuildErrorKind.LIMIT_EXCEEDED,
          BuildErrorKind.ARTIFACT,
          BuildErrorKind.INTERNAL);

  /**
   * The objects of a revision, and what was decrypted to make them (to keep it out of messages).
   * They hold room of the builds' shared heap ({@link BuildResult.Built}) until closed, once their
   * apply is done.
   */
  record Built(
      List<GenericKubernetesResource> objects, Plaintexts plaintexts, String digest, HeldRoom room)
      implements AutoCloseable {
    @Override
    public void close() {
      room.close();
    }
  }

  private BuildStage() {}

  /**
   * The attempt's Kustomization built from the artifact its source stage found, the Secrets and
   * ConfigMaps it names read as it acts in its own cluster.
   */
  static Built run(ManifestBuilder builder, PipelineSettings settings, Attempt attempt) {
    ArtifactLookup.StoredArtifact artifact = attempt.artifact();
    return run(
        builder,
        settings,
        attempt.object().getSpec(),
        attempt.namespace(),
        attempt.identity().local().client(),
        artifact.tree(),
        artifact.digest(),
        artifact.revision());
  }

  /**
   * @param settings the engine's settings (strict substitution, its own age keys); the defaults for
   *     a build outside the engine
   * @param namespace the Kustomization's namespace
   * @throws StageFailure when the build or decryption fails; its message holds nothing decrypted
   */
  static Built run(
      ManifestBuilder builder,
      PipelineSettings settings,
      KustomizationSpec spec,
      String namespace,
      KubernetesClient client,
      Path tree,
      String digest,
      String revision) {
    SopsDecryption decrypting = SopsDecryption.of(spec, namespace, client, settings.ageKeys());
    DecryptedInputs inputs = decrypting.generatorInputs(tree, spec);
    Plaintexts plaintexts = Plaintexts.of(inputs);
    try {
      BuildResult result =
          builder.build(
              tree,
              digest,
              spec.path(),
              BuildSettings.of(spec, namespace, client, settings.strictSubstitutions()),
              inputs.files());
      if (result instanceof BuildResult.Failed failed) {
        String message =
            "build of path '"
                + (spec.path() == null ? "./" : spec.path())
                + "' at revision "
                + revision
                + " failed: "
                + failed.error().message();
        throw TRANSIENT_BUILD_ERRORS.contains(failed.error().kind())
            ? StageFailure.transientFailure(Reason.BUILD_FAILED, message)
            : StageFailure.terminal(Reason.BUILD_FAILED, message);
      }
      return decrypted(decrypting, tree, (BuildResult.Built) result, inputs, plaintexts);
    } catch (StageFailure failure) {
      // kustomize quotes env lines it cannot split: the decrypted inputs stay out of the message.
      throw plaintexts.isEmpty() ? failure : failure.redacted(plaintexts::redact);
    }
  }

  /** The build's objects decrypted; a refusal gives their room back. */
  private static Built decrypted(
      SopsDecryption decrypting,
      Path tree,
      BuildResult.Built built,
      DecryptedInputs inputs,
      Plaintexts plaintexts) {
    try {
      SopsDecryption.Decrypted decrypted =
          decrypting.objects(tree, built.objects(), inputs, plaintexts);
      return new Built(decrypted.objects(), decrypted.plaintexts(), built.digest(), built.room());
    } catch (RuntimeException e) {
      built.close();
      throw e;
    }
  }
}
