package dev.capstan.engine.kustomization;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.api.kustomize.CommonMetadata;
import dev.capstan.api.kustomize.Decryption;
import dev.capstan.api.kustomize.KustomizationSpec;
import dev.capstan.decryption.DecryptedInputs;
import dev.capstan.decryption.DecryptionException;
import dev.capstan.decryption.DecryptionKeys;
import dev.capstan.decryption.EncryptedObjects;
import dev.capstan.decryption.GeneratorInputs;
import dev.capstan.decryption.InputTraces;
import dev.capstan.decryption.Plaintexts;
import dev.capstan.decryption.SecretPlacement;
import dev.capstan.decryption.SopsDecryptor;
import dev.capstan.engine.conditions.Reason;
import dev.capstan.kube.SecretEntries;
import dev.capstan.kube.SecretReader;
import dev.capstan.kube.SecretUnavailable;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The decryption around the build, as Flux does it with {@code spec.decryption}: SOPS-encrypted
 * secretGenerator inputs before it (the build sees them decrypted in its own in-memory copy),
 * SOPS-encrypted objects of its output after it. Decrypted values are applied only in a v1 Secret
 * of a namespace the Kustomization writes to, without a replication controller's mark its committed
 * document does not declare ({@link SecretPlacement}): the MAC covers the committed file, not what
 * the kustomization made of it. Failures stop the revision with Reason DecryptionFailed, naming the
 * file or object and what failed, never a value.
 */
final class SopsDecryption {
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  private final SopsDecryptor decryptor = new SopsDecryptor();
  private final Optional<DecryptionKeys> keys;
  private final SecretPlacement placement;

  private SopsDecryption(Optional<DecryptionKeys> keys, SecretPlacement placement) {
    this.keys = keys;
    this.placement = placement;
  }

  /**
   * Decryption with these keys, or none (spec.decryption not set), for a Kustomization whose
   * decrypted values may go where {@code placement} says: for tests of the stage.
   */
  static SopsDecryption withKeys(Optional<DecryptionKeys> keys, SecretPlacement placement) {
    return new SopsDecryption(keys, placement);
  }

  /** Reads the decryption Secret of the spec, if it names one, with the Kustomization's client. */
  static SopsDecryption of(KustomizationSpec spec, String namespace, KubernetesClient client) {
    return of(spec, namespace, client, GlobalAgeKeys.NONE);
  }

  /**
   * As {@link #of(KustomizationSpec, String, KubernetesClient)}; a spec.decryption without
   * secretRef decrypts with the engine's own age keys ({@code --sops-age-secret}), as Flux's.
   */
  static SopsDecryption of(
      KustomizationSpec spec, String namespace, KubernetesClient client, GlobalAgeKeys global) {
    CommonMetadata common = spec.commonMetadata();
    SecretPlacement placement =
        SecretPlacement.of(namespace, spec.targetNamespace())
            .withCommonMetadata(
                common == null ? null : common.labels(),
                common == null ? null : common.annotations());
    Decryption decryption = spec.decryption();
    if (decryption == null) {
      return new SopsDecryption(Optional.empty(), placement);
    }
    if (decryption.secretRef() == null || decryption.secretRef().name() == null) {
      return new SopsDecryption(
          Optional.of(global.keys().orElseGet(() -> DecryptionKeys.fromSecretData(Map.of()))),
          placement);
    }
    String name = decryption.secretRef().name();
    SecretEntries secret;
    try {
      secret = new SecretReader(client).read(namespace, name);
    } catch (SecretUnavailable e) {
      // Missing, refused or malformed, the Secret may be fixed in the cluster: a retry.
      throw StageFailure.transientFailure(
          Reason.DECRYPTION_FAILED, "decryption: " + e.getMessage());
    }
    try {
      return new SopsDecryption(
          Optional.of(DecryptionKeys.fromSecretData(secret.values())), placement);
    } catch (DecryptionException e) {
      throw failure(e.in("decryption Secret '" + namespace + "/" + name + "'"));
    }
  }

  /** The decrypted secretGenerator inputs of the build, by path in the artifact. */
  DecryptedInputs generatorInputs(Path tree, KustomizationSpec spec) {
    if (keys.isEmpty()) {
      return DecryptedInputs.NONE;
    }
    try {
      return GeneratorInputs.decrypt(
          tree,
          spec.path(),
          spec.components() == null ? List.of() : spec.components(),
          decryptor,
          keys.get());
    } catch (DecryptionException e) {
      throw failure(e);
    } catch (IOException e) {
      throw StageFailure.transientFailure(
          Reason.DECRYPTION_FAILED, "the artifact cannot be read: " + e.getMessage());
    }
  }

  /** The build's objects, every SOPS-encrypted one decrypted, and what was decrypted. */
  record Decrypted(List<GenericKubernetesResource> objects, Plaintexts plaintexts) {}

  /**
   * The build's objects with every SOPS-encrypted one decrypted; refused without spec.decryption,
   * and refused when decrypted values, of an object or of the generator {@code inputs}, are
   * anywhere but in a v1 Secret where {@link SecretPlacement} allows. {@code known} (what the
   * build's inputs held) grows by the values decrypted here.
   */
  Decrypted objects(
      Path tree, List<GenericKubernetesResource> built, DecryptedInputs inputs, Plaintexts known) {
    ObjectMapper mapper = Serialization.jsonMapper();
    EncryptedObjects encrypted =
        keys.map(k -> new EncryptedObjects(tree, decryptor, k)).orElse(null);
    InputTraces traces = InputTraces.of(inputs);
    List<GenericKubernetesResource> out = new ArrayList<>(built.size());
    Plaintexts plaintexts = known;
    for (GenericKubernetesResource object : built) {
      Map<String, Object> map = mapper.convertValue(object, MAP);
      if (traces.foundIn(map)) {
        checked(() -> placement.checkGenerated(map));
      }
      if (!EncryptedObjects.isEncrypted(map)) {
        out.add(object);
        continue;
      }
      EncryptedObjects.Decrypted plain = decrypted(encrypted, object, map);
      checked(() -> placement.checkDecrypted(plain.object(), plain.authored()));
      plaintexts = plaintexts.and(map, plain.object());
      out.add(mapper.convertValue(plain.object(), GenericKubernetesResource.class));
    }
    return new Decrypted(List.copyOf(out), plaintexts);
  }

  /** One encrypted object decrypted; refused without keys (spec.decryption not set). */
  private static EncryptedObjects.Decrypted decrypted(
      EncryptedObjects encrypted, GenericKubernetesResource object, Map<String, Object> map) {
    String what =
        object.getKind()
            + "/"
            + (object.getMetadata().getNamespace() == null
                ? ""
                : object.getMetadata().getNamespace() + "/")
            + object.getMetadata().getName();
    if (encrypted == null) {
      throw StageFailure.terminal(
          Reason.DECRYPTION_FAILED,
          what + " is SOPS-encrypted and spec.decryption is not set: it cannot be applied");
    }
    try {
      return encrypted.decrypt(map);
    } catch (DecryptionException e) {
      throw failure(e.in(what));
    } catch (IOException e) {
      throw StageFailure.transientFailure(
          Reason.DECRYPTION_FAILED, "the artifact cannot be read: " + e.getMessage());
    }
  }

  private static void checked(Runnable check) {
    try {
      check.run();
    } catch (DecryptionException e) {
      throw failure(e);
    }
  }

  /**
   * A wrong or missing key may be fixed in the cluster (retry); a bad document needs a new
   * revision.
   */
  private static StageFailure failure(DecryptionException e) {
    String message = "decryption failed: " + e.getMessage();
    return switch (e.problem()) {
      case INVALID_KEY, NO_MATCHING_KEY ->
          StageFailure.transientFailure(Reason.DECRYPTION_FAILED, message);
      case MALFORMED, INTEGRITY, UNSUPPORTED ->
          StageFailure.terminal(Reason.DECRYPTION_FAILED, message);
    };
  }
}
