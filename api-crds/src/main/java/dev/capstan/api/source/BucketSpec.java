package dev.capstan.api.source;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.capstan.api.common.GoDuration;
import dev.capstan.api.common.LocalObjectReference;
import dev.capstan.api.common.ReconciledSpec;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/** The desired state of a Bucket; field names and meaning follow Flux's v1 API. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record BucketSpec(
    @Default("generic")
        @JsonPropertyDescription(
            "generic (any S3-compatible storage) is the one this engine fetches; aws, gcp and "
                + "azure are refused.")
        BucketSpec.Provider provider,
    @Required @JsonPropertyDescription("The name of the bucket.") String bucketName,
    @Required
        @JsonPropertyDescription(
            "The object storage's address: host[:port], https unless insecure.")
        String endpoint,
    @JsonPropertyDescription(
            "A Security Token Service for temporary credentials; refused by this engine.")
        BucketSTSSpec sts,
    @JsonPropertyDescription("Connect to the endpoint over plain HTTP.") Boolean insecure,
    @JsonPropertyDescription("The endpoint's region; us-east-1 when empty.") String region,
    @JsonPropertyDescription("Only objects whose keys start with it are listed.") String prefix,
    @JsonPropertyDescription("Secret with accesskey and secretkey, which sign every request.")
        LocalObjectReference secretRef,
    @JsonPropertyDescription(
            "A ServiceAccount for a provider's workload identity (aws, gcp); refused by this "
                + "engine.")
        String serviceAccountName,
    @JsonPropertyDescription(
            "Secret with ca.crt (the endpoint's CA) and/or tls.crt and tls.key (a client "
                + "certificate), PEM-encoded.")
        LocalObjectReference certSecretRef,
    @JsonPropertyDescription("Secret with the proxy's address, and username and password.")
        LocalObjectReference proxySecretRef,
    @Required
        @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription("How often the bucket is listed for changes.")
        String interval,
    @Default("60s")
        @Pattern(GoDuration.PATTERN)
        @JsonPropertyDescription("Timeout of one fetch; defaults to 60s.")
        String timeout,
    @JsonPropertyDescription(
            "Ignore rules in .sourceignore (gitignore) syntax, over the bucket's .sourceignore.")
        String ignore,
    @JsonPropertyDescription("Stop checking this bucket.") Boolean suspend)
    implements ReconciledSpec {

  /** Flux's bucket providers; the constants are the API's values. */
  public enum Provider {
    generic,
    aws,
    gcp,
    azure
  }

  /** {@code provider}, generic when absent. */
  public Provider effectiveProvider() {
    return provider == null ? Provider.generic : provider;
  }

  /** {@code insecure}, false when absent. */
  public boolean insecureAllowed() {
    return Boolean.TRUE.equals(insecure);
  }
}
