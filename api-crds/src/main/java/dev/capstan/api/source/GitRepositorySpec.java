package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.GoDuration;
import dev.capstan.api.common.LocalObjectReference;
import dev.capstan.api.common.ReconciledSpec;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/**
 * The desired state of a GitRepository; field names and meaning follow Flux's v1 API, including its
 * rule that {@code serviceAccountName} goes only with the providers of cloud identities.
 */
@ValidationRule(
    value = GitRepositorySpec.SERVICE_ACCOUNT_RULE,
    message = "serviceAccountName can only be set when provider is 'azure' or 'aws'")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record GitRepositorySpec(
    @Required
        @Pattern(GitRepositorySpec.URL_PATTERN)
        @JsonPropertyDescription("Repository URL: http, https or ssh, as in Flux.")
        String url,
    @JsonPropertyDescription("The Git reference to fetch; defaults to the remote's default branch.")
        GitRepositoryRef ref,
    @Required
        @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription("How often the remote is checked for new commits, e.g. 1m.")
        String interval,
    @Pattern(GoDuration.PATTERN) @JsonPropertyDescription("Timeout of one fetch; defaults to 60s.")
        String timeout,
    @JsonPropertyDescription(
            "Secret with credentials: username/password, bearerToken, or identity and"
                + " known_hosts (SSH); for HTTPS also tls.crt and tls.key (a client certificate"
                + " and its PEM key, for mutual TLS) and ca.crt (authorities trusted beside the"
                + " system's).")
        LocalObjectReference secretRef,
    @JsonPropertyDescription(
            "Extra ignore rules in .gitignore syntax, applied to the fetched tree.")
        String ignore,
    @JsonPropertyDescription("Stop fetching this repository.") Boolean suspend,
    @JsonPropertyDescription(
            "Verify the OpenPGP or SSH signature of the commit and/or tag before using a"
                + " revision.")
        GitRepositoryVerification verify,
    @Size(max = 50)
        @JsonPropertyDescription(
            "Other GitRepositories (in this namespace) whose artifacts are copied into this one's.")
        List<GitRepositoryInclude> include,
    @JsonPropertyDescription("Also fetch the submodules (recursively) into the artifact.")
        Boolean recurseSubmodules,
    @Size(max = 100)
        @JsonPropertyDescription(
            "Directories of the repository that go into the artifact; all when empty.")
        List<@Size(max = 4096) String> sparseCheckout,
    @JsonPropertyDescription(
            "Secret with the HTTP(S) proxy to fetch through: address, and optionally "
                + "username and password.")
        LocalObjectReference proxySecretRef,
    @JsonPropertyDescription(
            "Who provides the credentials: generic (the default: spec.secretRef), github (a"
                + " GitHub App: githubAppID, githubAppInstallationID or"
                + " githubAppInstallationOwner, githubAppPrivateKey and optionally"
                + " githubAppBaseURL in spec.secretRef), azure or aws (cloud identities, which"
                + " this engine refuses at reconcile).")
        Provider provider,
    @JsonPropertyDescription(
            "ServiceAccount in this namespace whose cloud identity authenticates the fetch; only"
                + " with provider azure or aws, which this engine refuses.")
        String serviceAccountName)
    implements ReconciledSpec {

  /** Flux's rule: a service account names a cloud identity, so only those providers take one. */
  public static final String SERVICE_ACCOUNT_RULE =
      "!has(self.serviceAccountName) || (has(self.provider) && (self.provider == 'azure' ||"
          + " self.provider == 'aws'))";

  /** Flux's authentication providers of a GitRepository. */
  public enum Provider {
    generic,
    aws,
    azure,
    github
  }

  /** {@code provider}, {@link Provider#generic} when absent. */
  public Provider effectiveProvider() {
    return provider == null ? Provider.generic : provider;
  }

  /**
   * Flux's pattern for {@code spec.url}: remote URLs only. A local path or {@code file://} URL
   * would read the engine's own disk, where every other source's clone lives.
   */
  public static final String URL_PATTERN = "^(http|https|ssh)://.*$";

  /** {@code recurseSubmodules}, false when absent. */
  public boolean recursesSubmodules() {
    return Boolean.TRUE.equals(recurseSubmodules);
  }

  /** {@code include}, empty when absent. */
  public List<GitRepositoryInclude> includes() {
    return include == null ? List.of() : include;
  }
}
