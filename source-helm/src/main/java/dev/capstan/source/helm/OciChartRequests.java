package dev.capstan.source.helm;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import dev.capstan.source.oci.CosignKeys;
import dev.capstan.source.oci.KeylessPolicy;
import dev.capstan.source.oci.OciFetchRequest;
import dev.capstan.source.oci.OciRef;
import dev.capstan.source.oci.Safe;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** What a chart pull asks of source-oci's client, and the checks of its spec before any request. */
final class OciChartRequests {
  /** A chart name: one path segment, as Helm names charts. */
  private static final Pattern CHART_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,252}");

  private static final ObjectMapper JSON = new ObjectMapper();

  private OciChartRequests() {}

  /** The pull of {@code <url>/<chart>} with the repository's credentials, TLS and insecure. */
  static OciFetchRequest toOci(OciChartRequest request) {
    return OciFetchRequest.of(request.key(), request.chartUrl(), OciRef.latest())
        .withInsecure(request.insecure())
        .withPullSecrets(dockerConfigs(request))
        .withCertSecret(request.certSecret())
        .withTimeout(request.timeout());
  }

  static void checkChartName(String chart) {
    if (chart == null || !CHART_NAME.matcher(chart).matches()) {
      throw new SourceException(
          FailureReason.INVALID_SPEC,
          "spec.chart '" + Safe.text(chart) + "' is no chart name (one path segment)");
    }
  }

  /**
   * The trusted keys of {@code spec.verify}; empty for a keyless check. Another provider, and a
   * check with neither keys nor a trusted root, are refused by name.
   */
  static Optional<CosignKeys> keys(OciChartRequest request) {
    if (request.verify().isEmpty()) {
      return Optional.empty();
    }
    OciChartRequest.Verify verify = request.verify().get();
    String provider = verify.provider() == null ? "cosign" : verify.provider();
    if (!provider.equals("cosign")) {
      throw new SourceException(
          FailureReason.INVALID_SPEC,
          "spec.verify.provider '"
              + Safe.text(provider)
              + "' is not supported: only cosign signatures are verified");
    }
    if (verify.publicKeys() != null) {
      return Optional.of(CosignKeys.of(verify.publicKeys()));
    }
    if (verify.keyless() == null) {
      throw new SourceException(
          FailureReason.INVALID_SPEC,
          "spec.verify needs secretRef, or for keyless verification trustedRootSecretRef: "
              + "this engine verifies keyless signatures offline against the trusted root of "
              + "a Secret and does not fetch the public Sigstore root");
    }
    return Optional.empty();
  }

  /** The keyless check of {@code spec.verify}, when it names no keys. */
  static Optional<KeylessPolicy> keyless(OciChartRequest request) {
    return request
        .verify()
        .filter(v -> v.publicKeys() == null)
        .map(OciChartRequest.Verify::keyless);
  }

  /**
   * The repository's Secrets as Docker config JSON: a Secret of {@code username} and {@code
   * password} (Flux's other form of an OCI HelmRepository's secretRef) becomes the entry of the
   * registry's host.
   */
  static List<Map<String, byte[]>> dockerConfigs(OciChartRequest request) {
    List<Map<String, byte[]>> configs = new ArrayList<>();
    for (Map<String, byte[]> secret : request.pullSecrets()) {
      boolean basic = secret.containsKey("username") || secret.containsKey("password");
      if (!basic || secret.containsKey(".dockerconfigjson")) {
        configs.add(secret);
        continue;
      }
      if (!secret.containsKey("username") || !secret.containsKey("password")) {
        throw new SourceException(
            FailureReason.INVALID_SECRET,
            "the repository's secretRef has one of 'username' and 'password' without the other");
      }
      ObjectNode root = JSON.createObjectNode();
      ObjectNode entry = root.putObject("auths").putObject(hostOf(request.repositoryUrl()));
      entry.put("username", new String(secret.get("username"), StandardCharsets.UTF_8));
      entry.put("password", new String(secret.get("password"), StandardCharsets.UTF_8));
      configs.add(Map.of(".dockerconfigjson", root.toString().getBytes(StandardCharsets.UTF_8)));
    }
    return configs;
  }

  private static String hostOf(String url) {
    String rest = url.startsWith("oci://") ? url.substring("oci://".length()) : url;
    int slash = rest.indexOf('/');
    return slash < 0 ? rest : rest.substring(0, slash);
  }
}
