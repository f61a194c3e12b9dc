package dev.capstan.source.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The signer against the example AWS documents for S3 (GET Bucket, list objects). */
class SigV4Test {

  @Test
  void signsAwsDocumentedListObjectsExample() {
    SigV4 signer =
        new SigV4(
            "AKIAIOSFODNN7EXAMPLE",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".getBytes(StandardCharsets.UTF_8),
            "us-east-1");
    Map<String, String> query = new LinkedHashMap<>();
    query.put("prefix", "J");
    query.put("max-keys", "2");
    Map<String, String> headers =
        signer.sign(
            "GET",
            "examplebucket.s3.amazonaws.com",
            "/",
            query,
            Instant.parse("2013-05-24T00:00:00Z"));
    assertEquals("20130524T000000Z", headers.get("x-amz-date"));
    assertEquals(
        "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            + "SignedHeaders=host;x-amz-content-sha256;x-amz-date, "
            + "Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7",
        headers.get("Authorization"));
  }

  @Test
  void encodesAsAwsDoes() {
    assertEquals("a%20b%2Bc~d", SigV4.encode("a b+c~d", true));
    assertEquals("dir/%C3%A9t%C3%A9.yaml", SigV4.encode("dir/été.yaml", false));
    assertEquals("a%2Fb", SigV4.encode("a/b", true));
    assertEquals(
        "list-type=2&prefix=a%2Fb%20c",
        SigV4.canonicalQuery(Map.of("prefix", "a/b c", "list-type", "2")));
  }
}
