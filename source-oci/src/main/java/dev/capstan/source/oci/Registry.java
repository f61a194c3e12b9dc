package dev.capstan.source.oci;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The operations of the distribution specification a source and the push command use. */
final class Registry {
  /** A manifest is a small JSON document. */
  static final int MAX_MANIFEST_BYTES = 4 << 20;

  static final int MAX_TAG_LIST_BYTES = 8 << 20;
  static final int MAX_TAGS = 100_000;
  private static final Pattern NEXT = Pattern.compile("<([^>]+)>\\s*;\\s*rel=\"?next\"?");

  private final RegistryClient client;

  Registry(RegistryClient client) {
    this.client = client;
  }

  RegistryClient client() {
    return client;
  }

  /**
   * The digest {@code reference} (a tag or digest) resolves to, by one HEAD request; a GET (whose
   * body is hashed) only when the registry does not say it.
   */
  String resolve(String reference) {
    HttpResponse<InputStream> head =
        client.send(
            client
                .request(client.uri("manifests/" + reference))
                .header("Accept", Manifest.ACCEPT)
                .method("HEAD", HttpRequest.BodyPublishers.noBody()));
    RegistryClient.close(head);
    if (head.statusCode() == 404) {
      throw new SourceException(
          FailureReason.OCI_PULL_FAILED,
          "'" + reference + "' not found in " + client.url().display());
    }
    String digest = head.headers().firstValue("Docker-Content-Digest").orElse("");
    if (head.statusCode() == 200 && OciUrl.DIGEST.matcher(digest).matches()) {
      return digest;
    }
    return digestOf(manifestBytes(reference).body());
  }

  /** The manifest stored under {@code digest}; its bytes must hash to that digest. */
  Manifest manifest(String digest) {
    Fetched fetched = manifestBytes(digest);
    if (!digestOf(fetched.body()).equals(digest)) {
      throw new SourceException(
          FailureReason.OCI_PULL_FAILED,
          "the manifest the registry sent for " + digest + " does not match that digest");
    }
    return Manifest.parse(fetched.body(), fetched.contentType());
  }

  private record Fetched(byte[] body, String contentType) {}

  private Fetched manifestBytes(String reference) {
    HttpResponse<InputStream> response =
        client.send(
            client
                .request(client.uri("manifests/" + reference))
                .header("Accept", Manifest.ACCEPT)
                .GET());
    try (InputStream in = response.body()) {
      if (response.statusCode() == 404) {
        throw new SourceException(
            FailureReason.OCI_PULL_FAILED,
            "'" + reference + "' not found in " + client.url().display());
      }
      if (response.statusCode() != 200) {
        throw client.pullFailed(
            "the registry answered " + response.statusCode() + " for the manifest");
      }
      return new Fetched(
          Bounded.read(in, MAX_MANIFEST_BYTES, "the manifest"),
          response.headers().firstValue("Content-Type").orElse(null));
    } catch (IOException e) {
      throw client.pullFailed("cannot read the manifest (" + e.getClass().getSimpleName() + ")");
    }
  }

  /** Every tag of the repository, following the registry's pages. */
  List<String> tags() {
    List<String> tags = new ArrayList<>();
    URI next = client.uri("tags/list");
    while (next != null) {
      HttpResponse<InputStream> response = client.send(client.request(next).GET());
      try (InputStream in = response.body()) {
        if (response.statusCode() != 200) {
          throw new SourceException(
              FailureReason.READ_OPERATION_FAILED,
              "the registry answered "
                  + response.statusCode()
                  + " when listing tags of "
                  + client.url().display());
        }
        var json =
            new ObjectMapper().readTree(Bounded.read(in, MAX_TAG_LIST_BYTES, "the tag list"));
        for (var tag : json.path("tags")) {
          tags.add(tag.asText());
          if (tags.size() > MAX_TAGS) {
            throw new SourceException(
                FailureReason.READ_OPERATION_FAILED,
                client.url().display() + " has more than " + MAX_TAGS + " tags");
          }
        }
        next = nextPage(next, response.headers().firstValue("Link").orElse(null), client);
      } catch (IOException e) {
        throw new SourceException(
            FailureReason.READ_OPERATION_FAILED,
            "cannot read the tag list of " + client.url().display());
      }
    }
    return tags;
  }

  /**
   * The next page of the tag list its {@code Link} header names, which must be on the registry's
   * own origin: a page elsewhere would be asked with the registry's credentials.
   */
  static URI nextPage(URI current, String link, RegistryClient client) {
    if (link == null) {
      return null;
    }
    Matcher m = NEXT.matcher(link);
    if (!m.find()) {
      return null;
    }
    URI next;
    try {
      next = current.resolve(m.group(1));
    } catch (IllegalArgumentException e) {
      throw tagListFailed(
          "the next page of the tag list of " + client.url().display() + " is not a URL");
    }
    if (!RegistryClient.sameOrigin(next, client.origin())) {
      throw tagListFailed(
          "the tag list of "
              + client.url().display()
              + " links its next page to another origin than the registry's; only pages on "
              + client.origin()
              + " are read");
    }
    return next;
  }

  private static SourceException tagListFailed(String message) {
    return new SourceException(FailureReason.READ_OPERATION_FAILED, message);
  }

  /**
   * Streams the blob into {@code file}, hashing it on the way; fails when it is larger than its
   * descriptor says or than {@code limit}, or when its digest is not the descriptor's.
   */
  void download(Descriptor blob, Path file, long limit, FailureReason onMismatch) {
    if (blob.size() > limit) {
      throw new SourceException(
          FailureReason.SIZE_LIMIT_EXCEEDED,
          "the layer is " + blob.size() + " bytes, more than the limit of " + limit);
    }
    HttpResponse<InputStream> response =
        client.send(client.request(client.uri("blobs/" + blob.digest())).GET());
    MessageDigest sha = sha256();
    long written = 0;
    try (InputStream in = new DigestInputStream(response.body(), sha);
        OutputStream out = Files.newOutputStream(file)) {
      if (response.statusCode() != 200) {
        throw client.pullFailed(
            "the registry answered " + response.statusCode() + " for blob " + blob.digest());
      }
      byte[] buffer = new byte[65536];
      int n;
      while ((n = in.read(buffer)) > 0) {
        written += n;
        if (written > blob.size()) {
          throw new SourceException(
              onMismatch,
              "blob "
                  + blob.digest()
                  + " is larger than the "
                  + blob.size()
                  + " bytes its descriptor names");
        }
        out.write(buffer, 0, n);
      }
    } catch (IOException e) {
      throw client.pullFailed(
          "cannot read blob " + blob.digest() + " (" + e.getClass().getSimpleName() + ")");
    }
    String actual = "sha256:" + HexFormat.of().formatHex(sha.digest());
    if (written != blob.size() || !actual.equals(blob.digest())) {
      throw new SourceException(
          onMismatch,
          "blob "
              + blob.digest()
              + " does not match its digest (the registry sent content "
              + "with digest "
              + actual
              + ")");
    }
  }

  /** A small blob (a signature's payload, a config), read into memory and checked. */
  byte[] smallBlob(Descriptor blob, int limit, FailureReason onMismatch) {
    try {
      Path tmp = Files.createTempFile("capstan-blob", ".bin");
      try {
        download(blob, tmp, limit, onMismatch);
        return Files.readAllBytes(tmp);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new SourceException(FailureReason.STORAGE_FAILED, "cannot write a temporary file");
    }
  }

  static String digestOf(byte[] bytes) {
    return "sha256:" + HexFormat.of().formatHex(sha256().digest(bytes));
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java runtime", e);
    }
  }
}
