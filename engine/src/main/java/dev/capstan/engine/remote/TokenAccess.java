package dev.capstan.engine.remote;

import dev.capstan.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.authentication.SelfSubjectReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Secret-less access to a remote cluster ({@code spec.kubeConfig.configMapRef}), Flux's {@code
 * generic} provider: the remote API server trusts the engine's cluster as a token issuer, and the
 * engine authenticates with a short-lived token of a service account of the Kustomization's
 * namespace, requested from its own cluster for the remote's audiences. The cloud providers ({@code
 * aws}, {@code azure}, {@code gcp}) are not available to this engine.
 */
final class TokenAccess {
  static final long TOKEN_SECONDS = 3600;
  private static final int MAX_VALUE_LENGTH = 64 * 1024;

  private TokenAccess() {}

  static RemoteConnection connection(
      ConfigMap map, String where, KubernetesClient local, String namespace) {
    Map<String, String> data = map.getData() == null ? Map.of() : map.getData();
    data.forEach(
        (k, v) -> {
          if (v != null && v.length() > MAX_VALUE_LENGTH) {
            throw invalid(
                where, "data." + k + " is longer than " + MAX_VALUE_LENGTH / 1024 + " KiB");
          }
        });
    String provider = data.get("provider");
    if (provider == null || provider.isBlank()) {
      throw invalid(where, "data.provider is required (generic)");
    }
    if (!"generic".equals(provider)) {
      throw invalid(
          where,
          "provider '"
              + provider.strip()
              + "' is not supported: only 'generic' (a remote "
              + "API server that trusts this cluster's service account tokens)");
    }
    String address = data.get("address");
    if (address == null || !address.startsWith("https://")) {
      throw invalid(where, "data.address must be the remote API server's https URL");
    }
    String account = data.get("serviceAccountName");
    if (account == null || account.isBlank()) {
      throw invalid(
          where,
          "data.serviceAccountName is required: the service account of namespace '"
              + namespace
              + "' whose token authenticates to the remote cluster");
    }
    List<String> audiences =
        data.get("audiences") == null || data.get("audiences").isBlank()
            ? List.of(address)
            : Arrays.stream(data.get("audiences").split("\n"))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList();
    String ca = data.get("ca.crt");
    String caData =
        ca == null || ca.isBlank()
            ? null
            : Base64.getEncoder().encodeToString(ca.getBytes(StandardCharsets.UTF_8));
    Tokens tokens =
        new Tokens(local, namespace, account.strip(), audiences, Clock.systemUTC(), where);
    tokens.get(); // fails now, with a clear message, rather than on the first request
    return new RemoteConnection(address, caData, false, null, null, tokens, null, null);
  }

  /** Tokens of one service account, requested again when most of the last one's life is gone. */
  static final class Tokens implements Supplier<String> {
    private final KubernetesClient local;
    private final String namespace;
    private final String account;
    private final List<String> audiences;
    private final Clock clock;
    private final String where;
    private String token;
    private Instant renewAt = Instant.MIN;

    Tokens(
        KubernetesClient local,
        String namespace,
        String account,
        List<String> audiences,
        Clock clock,
        String where) {
      this.local = local;
      this.namespace = namespace;
      this.account = account;
      this.audiences = List.copyOf(audiences);
      this.clock = clock;
      this.where = where;
    }

    @Override
    public synchronized String get() {
      Instant now = clock.instant();
      if (token != null && now.isBefore(renewAt)) {
        return token;
      }
      TokenRequest request =
          new TokenRequestBuilder()
              .withNewSpec()
              .withAudiences(audiences)
              .withExpirationSeconds(TOKEN_SECONDS)
              .endSpec()
              .build();
      String issued;
      try {
        issued =
            local
                .serviceAccounts()
                .inNamespace(namespace)
                .withName(account)
                .tokenRequest(request)
                .getStatus()
                .getToken();
      } catch (KubernetesClientException e) {
        if (token != null) {
          return token; // still valid for a fifth of its life; the next request tries again
        }
        throw invalid(
            where,
            "cannot get a token of service account '"
                + namespace
                + "/"
                + account
                + "': "
                + ApiErrors.reason(e));
      }
      refuseIfValidHere(issued);
      token = issued;
      renewAt = now.plus(Duration.ofSeconds(TOKEN_SECONDS * 4 / 5));
      return token;
    }

    /**
     * The audiences come from the tenant's ConfigMap, and so does the address the token is sent to:
     * a token this cluster's own API server accepts would hand the service account's rights here to
     * whoever runs that address. Asked of the API server itself (a SelfSubjectReview made with the
     * token: only a token it accepts gets an answer other than 401).
     */
    private void refuseIfValidHere(String issued) {
      Config config =
          new ConfigBuilder(Config.empty())
              .withMasterUrl(local.getConfiguration().getMasterUrl())
              .withCaCertData(local.getConfiguration().getCaCertData())
              .withCaCertFile(local.getConfiguration().getCaCertFile())
              .withTrustCerts(local.getConfiguration().isTrustCerts())
              .withOauthToken(issued)
              .withRequestRetryBackoffLimit(0)
              .build();
      int code;
      try (KubernetesClient asToken = new KubernetesClientBuilder().withConfig(config).build()) {
        asToken.resource(new SelfSubjectReviewBuilder().build()).create();
        code = 201;
      } catch (KubernetesClientException e) {
        code = e.getCode();
      }
      if (code == 401) {
        return;
      }
      if (code == 0) {
        throw invalid(
            where, "this cluster's API server could not be asked whether the token is valid here");
      }
      throw invalid(
          where,
          "a token for audiences "
              + audiences
              + " would be accepted by this cluster's own API server, and would be sent to"
              + " data.address: name the remote cluster's own audience in data.audiences");
    }
  }

  private static RemoteClusterException invalid(String where, String problem) {
    return new RemoteClusterException(where + " cannot be used: " + problem);
  }
}
