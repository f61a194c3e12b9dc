package dev.capstan.applier.kustomize;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** A build response in the worker's JSON form (see kustomize-worker/go/request.go). */
record KustomizeResponse(List<GenericKubernetesResource> objects, String yaml, Failure error) {

  record Failure(String stage, String message) {}

  private static final Map<String, BuildErrorKind> KINDS =
      Map.of(
          "path", BuildErrorKind.PATH_NOT_FOUND,
          "generate", BuildErrorKind.INVALID_KUSTOMIZATION,
          "kustomize", BuildErrorKind.KUSTOMIZE,
          "object", BuildErrorKind.INVALID_OBJECT,
          "substitute", BuildErrorKind.SUBSTITUTION);

  /** The digest of an answer's bytes, {@code sha256:<hex>}. */
  static String digest(byte[] answer) {
    try {
      return "sha256:"
          + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(answer));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  static KustomizeResponse parse(byte[] json, ObjectMapper mapper) {
    try {
      return mapper.readValue(json, KustomizeResponse.class);
    } catch (IOException e) {
      StreamConstraintsException limit = constraintIn(e);
      if (limit != null) {
        // Jackson's own limits on what it reads: the objects are read, and later written, by
        // recursion, and no single value may fill the heap.
        throw new BuildException(
            BuildErrorKind.INVALID_OBJECT,
            String.valueOf(limit.getMessage()).contains("nesting depth")
                ? "an object nests more than "
                    + StreamReadConstraints.DEFAULT_MAX_DEPTH
                    + " levels deep"
                : "an object holds a value larger than the engine reads");
      }
      throw new BuildException(BuildErrorKind.INTERNAL, "the build worker's answer cannot be read");
    }
  }

  private static StreamConstraintsException constraintIn(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof StreamConstraintsException limit) {
        return limit;
      }
    }
    return null;
  }

  /**
   * @param digest the digest of the answer this response was read from
   * @param room what the answer's objects hold, handed to a {@link BuildResult.Built} (the caller
   *     gives it back for other results)
   */
  BuildResult toResult(KustomizeRequest.Output output, String digest, HeldRoom room) {
    if (error != null) {
      BuildErrorKind kind = KINDS.getOrDefault(error.stage(), BuildErrorKind.INTERNAL);
      return new BuildResult.Failed(new BuildError(kind, error.message()));
    }
    return output == KustomizeRequest.Output.YAML
        ? new BuildResult.Printed(yaml == null ? "" : yaml)
        : new BuildResult.Built(objects == null ? List.of() : objects, digest, room);
  }
}
