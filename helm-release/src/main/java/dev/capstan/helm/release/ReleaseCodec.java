package dev.capstan.helm.release;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.zip.Deflater;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The {@code release} entry of a record as Helm writes it: the release JSON, gzip (best
 * compression), Base64. The Secret's own data encoding comes on top of that, so a record's data is
 * Base64 twice. Reading is bounded, as a record is anyone's Secret: the text it unpacks to may be
 * at most {@link #MAX_JSON_BYTES}.
 */
final class ReleaseCodec {
  /** The most a record's release JSON may unpack to; Helm's largest records are far smaller. */
  static final int MAX_JSON_BYTES = 64 << 20;

  private static final byte[] GZIP_MAGIC = {0x1f, (byte) 0x8b, 0x08};

  // One mapper for every codec: a codec is made with each reconcile's release storage, and a new
  // mapper introspects the release's classes again at its first read.
  private static final ObjectMapper JSON =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false);

  /** The entry's text: Base64 of the gzipped release JSON. */
  String encode(Release release) {
    try {
      byte[] body = JSON.writeValueAsBytes(release);
      ByteArrayOutputStream packed = new ByteArrayOutputStream();
      try (GZIPOutputStream gzip = new BestGzipOutputStream(packed)) {
        gzip.write(body);
      }
      return Base64.getEncoder().encodeToString(packed.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory does not fail", e);
    }
  }

  /**
   * The release in an entry's text. Records written before Helm compressed them are plain JSON
   * under the Base64, and read as such, as Helm reads them.
   *
   * @throws IllegalArgumentException saying which layer is malformed (never quoting it)
   */
  Release decode(byte[] text) {
    byte[] packed;
    try {
      packed = Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("its release entry is not Base64");
    }
    byte[] body = isGzip(packed) ? gunzip(packed) : packed;
    try {
      Release release = JSON.readValue(body, Release.class);
      if (release == null) {
        throw new IllegalArgumentException("its release JSON is null");
      }
      return release;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "its release JSON is malformed at line "
              + e.getLocation().getLineNr()
              + ", column "
              + e.getLocation().getColumnNr());
    } catch (IOException e) {
      throw new IllegalArgumentException("its release JSON cannot be read");
    }
  }

  private static boolean isGzip(byte[] packed) {
    return packed.length > GZIP_MAGIC.length
        && packed[0] == GZIP_MAGIC[0]
        && packed[1] == GZIP_MAGIC[1]
        && packed[2] == GZIP_MAGIC[2];
  }

  private static byte[] gunzip(byte[] packed) {
    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(packed))) {
      byte[] body = in.readNBytes(MAX_JSON_BYTES + 1);
      if (body.length > MAX_JSON_BYTES) {
        throw new IllegalArgumentException(
            "its release JSON unpacks to more than " + (MAX_JSON_BYTES >> 20) + " MiB");
      }
      return body;
    } catch (IOException e) {
      throw new IllegalArgumentException("its release entry is not valid gzip");
    }
  }

  /** gzip at the best compression, as Helm writes records. */
  private static final class BestGzipOutputStream extends GZIPOutputStream {
    BestGzipOutputStream(ByteArrayOutputStream out) throws IOException {
      super(out);
      def.setLevel(Deflater.BEST_COMPRESSION);
    }
  }
}
