package dev.capstan.source.bucket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Listing pages and error answers from fixtures in {@code src/test/resources/listings}. */
class ListingParserTest {

  @Test
  void readsKeysEtagsWithoutQuotesSizesAndTheNextToken() throws IOException {
    ListingParser.Page page = ListingParser.page(fixture("page-truncated.xml"));
    assertEquals(
        List.of(
            new ListingParser.Listed("deploy/a & b.yaml", "0cc175b9c0f1b6a831c399e269772661", 1),
            new ListingParser.Listed("kustomization.yaml", "92eb5ffee6ae2fec3ad71c777531578f", 42)),
        page.objects());
    assertTrue(page.truncated());
    assertEquals("token-2", page.nextToken());
  }

  @Test
  void refusesWhatIsNoListing() throws IOException {
    for (String name :
        List.of("truncated-without-token.xml", "external-entity.xml", "not-a-listing.html")) {
      SourceException e =
          assertThrows(SourceException.class, () -> ListingParser.page(fixture(name)), name);
      assertEquals(FailureReason.BUCKET_OPERATION_FAILED, e.reason());
    }
  }

  @Test
  void readsAnErrorsCode() throws IOException {
    assertEquals("NoSuchBucket", ListingParser.errorCode(fixture("no-such-bucket.xml")));
    assertEquals("", ListingParser.errorCode(fixture("not-a-listing.html")));
  }

  private static byte[] fixture(String name) throws IOException {
    try (InputStream in = ListingParserTest.class.getResourceAsStream("/listings/" + name)) {
      return in.readAllBytes();
    }
  }
}
