package dev.capstan.source.helm;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.net.URI;
import java.net.URISyntaxException;

/** A HelmRepository's URL, checked, and the URL of its index. */
final class RepositoryUrl {
  private RepositoryUrl() {}

  /**
   * @throws SourceException {@code URLInvalid} unless an http(s) URL with a host and without user
   *     information
   */
  static URI parse(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw invalid("spec.url is not a URL");
    }
    String scheme = uri.getScheme();
    if (scheme == null || !(scheme.equals("http") || scheme.equals("https"))) {
      throw invalid("spec.url must be an http:// or https:// URL (oci:// needs spec.type: oci)");
    }
    if (uri.getHost() == null) {
      throw invalid("spec.url has no host");
    }
    if (uri.getRawUserInfo() != null) {
      throw invalid("spec.url must not hold credentials; name them in spec.secretRef");
    }
    return uri;
  }

  /** {@code <url>/index.yaml}, the query kept, as Helm and Flux ask for the index. */
  static URI index(URI repository) {
    String path = repository.getRawPath() == null ? "" : repository.getRawPath();
    String withIndex = (path.endsWith("/") ? path : path + "/") + "index.yaml";
    String query = repository.getRawQuery() == null ? "" : "?" + repository.getRawQuery();
    return URI.create(
        repository.getScheme() + "://" + repository.getRawAuthority() + withIndex + query);
  }

  private static SourceException invalid(String message) {
    return new SourceException(FailureReason.INVALID_URL, message);
  }
}
