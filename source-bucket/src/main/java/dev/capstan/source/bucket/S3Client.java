package dev.capstan.source.bucket;

import dev.capstan.source.core.BoundedBody;
import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.ReadDeadlines;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The two S3 operations a bucket fetch needs, over java.net.http: ListObjectsV2 (every page, at
 * most {@code maxObjects} objects) and GetObject (as a stream). Requests are signed with Signature
 * Version 4 when the Bucket names credentials, anonymous otherwise. Every answer is read within the
 * fetch's deadline ({@link ReadDeadlines}); a listing page is bounded in size.
 */
final class S3Client {
  /** One listing page: 1,000 objects of keys of 1,024 characters are well below it. */
  static final long MAX_PAGE_BYTES = 8L << 20;

  /** An error answer's body, read for its Code. */
  private static final long MAX_ERROR_BYTES = 64 << 10;

  private final BucketClients.Connection connection;
  private final ReadDeadlines reads;
  private final Clock clock;
  private final S3Endpoint endpoint;
  private final String bucket;
  private final SigV4 signer;
  private final Instant deadline;

  S3Client(
      BucketClients.Connection connection,
      ReadDeadlines reads,
      Clock clock,
      S3Endpoint endpoint,
      String bucket,
      SigV4 signer,
      Instant deadline) {
    this.connection = connection;
    this.reads = reads;
    this.clock = clock;
    this.endpoint = endpoint;
    this.bucket = bucket;
    this.signer = signer;
    this.deadline = deadline;
  }

  /** Every object under {@code prefix}, page after page. */
  List<ListingParser.Listed> list(String prefix, int maxObjects) throws IOException {
    List<ListingParser.Listed> all = new ArrayList<>();
    String token = null;
    do {
      Map<String, String> query = new LinkedHashMap<>();
      query.put("list-type", "2");
      if (!prefix.isEmpty()) {
        query.put("prefix", prefix);
      }
      if (token != null) {
        query.put("continuation-token", token);
      }
      try (InputStream body = send(S3Endpoint.path(bucket, null), query, "listing")) {
        byte[] xml =
            BoundedBody.readAll(
                body,
                MAX_PAGE_BYTES,
                () -> failed("a listing page is larger than " + MAX_PAGE_BYTES + " bytes"));
        ListingParser.Page page = ListingParser.page(xml);
        all.addAll(page.objects());
        String next = page.truncated() ? page.nextToken() : null;
        // A server that says there is more but gives nothing new would be listed until the
        // deadline: an empty truncated page, or the same token again, ends the listing.
        if (next != null && (page.objects().isEmpty() || next.equals(token))) {
          throw failed("the listing does not advance (an empty page or a repeated token)");
        }
        token = next;
      }
      if (all.size() > maxObjects) {
        throw new SourceException(
            FailureReason.SIZE_LIMIT_EXCEEDED,
            "the bucket lists more than " + maxObjects + " objects");
      }
    } while (token != null);
    return all;
  }

  /** The object's content; empty when the bucket has no such key. */
  Optional<InputStream> get(String key) throws IOException {
    try {
      return Optional.of(send(S3Endpoint.path(bucket, key), Map.of(), "download"));
    } catch (NotFound e) {
      return Optional.empty();
    }
  }

  private InputStream send(String path, Map<String, String> query, String what) throws IOException {
    Duration left = Duration.between(clock.instant(), deadline);
    if (left.isNegative() || left.isZero()) {
      throw timedOut(what);
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(endpoint.uri(path, SigV4.canonicalQuery(query))).timeout(left).GET();
    if (signer != null) {
      signer.sign("GET", endpoint.host(), path, query, clock.instant()).forEach(request::header);
    }
    connection
        .proxyAuthorization()
        .ifPresent(value -> request.header("Proxy-Authorization", value));
    HttpResponse<InputStream> response;
    try {
      response =
          connection
              .http()
              .send(
                  request.build(),
                  reads.handler(
                      deadline, FailureReason.BUCKET_OPERATION_FAILED, timedOutText(what)));
    } catch (HttpTimeoutException e) {
      throw timedOut(what);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failed("the " + what + " was interrupted");
    } catch (IOException e) {
      throw failed(
          "the "
              + what
              + " could not reach "
              + endpoint.scheme()
              + "://"
              + endpoint.host()
              + " ("
              + e.getClass().getSimpleName()
              + ")");
    }
    if (response.statusCode() == 200) {
      return response.body();
    }
    String code;
    try (InputStream body = response.body()) {
      code = ListingParser.errorCode(errorBody(body));
    }
    throw refusal(response.statusCode(), code, what);
  }

  private static byte[] errorBody(InputStream body) throws IOException {
    try {
      return BoundedBody.readAll(body, MAX_ERROR_BYTES, () -> failed("error body too large"));
    } catch (SourceException e) {
      return new byte[0];
    }
  }

  private IOException refusal(int status, String code, String what) {
    String answer = "HTTP " + status + (code.isEmpty() ? "" : " " + code);
    if (code.equals("NoSuchBucket")) {
      throw failed("bucket '" + bucket + "' does not exist at " + endpoint.host());
    }
    if (status == 404 && what.equals("download")) {
      return new NotFound();
    }
    if (status == 401 || status == 403) {
      throw new SourceException(
          FailureReason.AUTHENTICATION_FAILED,
          "the server refused the " + what + " of bucket '" + bucket + "': " + answer);
    }
    throw failed("the " + what + " of bucket '" + bucket + "' failed: " + answer);
  }

  private static String timedOutText(String what) {
    return "the " + what + " did not finish within the timeout";
  }

  private static SourceException timedOut(String what) {
    return failed(timedOutText(what));
  }

  private static SourceException failed(String message) {
    return new SourceException(FailureReason.BUCKET_OPERATION_FAILED, message);
  }

  /** A key that is not (or no longer) in the bucket. */
  private static final class NotFound extends IOException {
    NotFound() {
      super("not found", null);
    }
  }
}
