package dev.capstan.source.bucket;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads one page of a ListObjectsV2 answer ({@code ListBucketResult}) and the {@code Code} of an S3
 * error answer, as a stream of XML events with DTDs and external entities refused: the answer comes
 * from a server the tenant names. Only the elements named here are kept.
 */
final class ListingParser {
  private static final XMLInputFactory FACTORY = factory();

  /** One object of a listing. */
  record Listed(String key, String etag, long size) {}

  /** One page: its objects, and the token of the next page when it is truncated. */
  record Page(List<Listed> objects, boolean truncated, String nextToken) {}

  private ListingParser() {}

  static Page page(byte[] xml) {
    List<Listed> objects = new ArrayList<>();
    boolean truncated = false;
    String next = null;
    try {
      XMLStreamReader reader = FACTORY.createXMLStreamReader(new ByteArrayInputStream(xml));
      boolean inResult = false;
      while (reader.hasNext()) {
        if (reader.next() != XMLStreamReader.START_ELEMENT) {
          continue;
        }
        switch (reader.getLocalName()) {
          case "ListBucketResult" -> inResult = true;
          case "Contents" -> objects.add(contents(reader));
          case "IsTruncated" -> truncated = "true".equals(reader.getElementText().strip());
          case "NextContinuationToken" -> next = reader.getElementText().strip();
          default -> {
            // other elements (Name, Prefix, KeyCount, CommonPrefixes...) are not needed
          }
        }
      }
      if (!inResult) {
        throw unreadable("the answer is no ListBucketResult");
      }
    } catch (XMLStreamException | NumberFormatException e) {
      throw unreadable("the listing is not readable XML");
    }
    if (truncated && (next == null || next.isEmpty())) {
      throw unreadable("a truncated listing without a continuation token");
    }
    return new Page(List.copyOf(objects), truncated, next);
  }

  private static Listed contents(XMLStreamReader reader) throws XMLStreamException {
    String key = null;
    String etag = "";
    long size = 0;
    while (reader.hasNext()) {
      int event = reader.next();
      if (event == XMLStreamReader.END_ELEMENT && reader.getLocalName().equals("Contents")) {
        break;
      }
      if (event == XMLStreamReader.START_ELEMENT) {
        switch (reader.getLocalName()) {
          case "Key" -> key = reader.getElementText();
          case "ETag" -> etag = unquoted(reader.getElementText().strip());
          case "Size" -> size = Long.parseLong(reader.getElementText().strip());
          default -> {
            // LastModified, StorageClass, Owner... are not needed
          }
        }
      }
    }
    if (key == null || size < 0) {
      throw unreadable("a listed object without a key or with a negative size");
    }
    return new Listed(key, etag, size);
  }

  /**
   * The {@code Code} of an S3 error answer, reduced to letters and digits (it comes from the
   * server); empty when there is none.
   */
  static String errorCode(byte[] xml) {
    try {
      XMLStreamReader reader = FACTORY.createXMLStreamReader(new ByteArrayInputStream(xml));
      while (reader.hasNext()) {
        if (reader.next() == XMLStreamReader.START_ELEMENT
            && reader.getLocalName().equals("Code")) {
          String code = reader.getElementText().replaceAll("[^A-Za-z0-9]", "");
          return code.length() > 64 ? code.substring(0, 64) : code;
        }
      }
    } catch (XMLStreamException e) {
      return "";
    }
    return "";
  }

  /** An ETag as the index holds it: without the quotes S3 writes around it. */
  static String unquoted(String etag) {
    return etag.length() >= 2 && etag.startsWith("\"") && etag.endsWith("\"")
        ? etag.substring(1, etag.length() - 1)
        : etag;
  }

  private static SourceException unreadable(String message) {
    return new SourceException(FailureReason.BUCKET_OPERATION_FAILED, message);
  }

  private static XMLInputFactory factory() {
    XMLInputFactory factory = XMLInputFactory.newFactory();
    factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
    factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
    return factory;
  }
}
