package dev.capstan.source.oci.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;

/**
 * Tar+gzip layers written record by record, for what a tar writer refuses to write: headers whose
 * declared size is not what follows them, sparse headers with extensions, chains of headers.
 * Records are streamed into the gzip stream, so a layer decompressing to hundreds of MiB stays
 * small in memory.
 */
public final class RawTar {
  private static final int RECORD = 512;

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final OutputStream gzip;

  public RawTar() throws IOException {
    gzip = new GZIPOutputStream(bytes, 65536);
  }

  /** A POSIX (ustar) header of {@code type} declaring {@code size} bytes of data. */
  public RawTar header(String name, char type, long size) throws IOException {
    gzip.write(record(name, type, size, "ustar\0", "00", false));
    return this;
  }

  /** An old GNU sparse header ('S') whose map goes on in an extension record when extended. */
  public RawTar oldGnuSparse(String name, long size, boolean extended) throws IOException {
    gzip.write(record(name, 'S', size, "ustar ", " \0", extended));
    return this;
  }

  /** An extension record of an old GNU sparse header, announcing another when extended. */
  public RawTar sparseExtension(boolean extended) throws IOException {
    byte[] record = new byte[RECORD];
    record[504] = (byte) (extended ? 1 : 0);
    gzip.write(record);
    return this;
  }

  /** {@code data}, padded to whole records. */
  public RawTar data(byte[] data) throws IOException {
    gzip.write(data);
    gzip.write(new byte[(RECORD - data.length % RECORD) % RECORD]);
    return this;
  }

  /** {@code count} bytes of {@code value}, padded to whole records, written as they go. */
  public RawTar data(long count, byte value) throws IOException {
    byte[] chunk = new byte[65536];
    Arrays.fill(chunk, value);
    for (long left = count; left > 0; left -= chunk.length) {
      gzip.write(chunk, 0, (int) Math.min(chunk.length, left));
    }
    gzip.write(new byte[(int) ((RECORD - count % RECORD) % RECORD)]);
    return this;
  }

  /** One PAX record, {@code "<length> key=value\n"}, its length counting itself. */
  public static byte[] pax(String key, String value) {
    String body = " " + key + "=" + value + "\n";
    int length = body.getBytes(StandardCharsets.UTF_8).length;
    int total = length + Integer.toString(length).length();
    if (Integer.toString(total).length() != Integer.toString(length).length()) {
      total++;
    }
    return (total + body).getBytes(StandardCharsets.UTF_8);
  }

  /** The layer: the records so far and the two zero records that end an archive, gzipped. */
  public byte[] bytes() throws IOException {
    gzip.write(new byte[2 * RECORD]);
    gzip.close();
    return bytes.toByteArray();
  }

  private static byte[] record(
      String name, char type, long size, String magic, String version, boolean extended) {
    byte[] record = new byte[RECORD];
    put(record, 0, name);
    put(record, 100, "0000644\0");
    put(record, 108, "0000000\0");
    put(record, 116, "0000000\0");
    put(record, 124, String.format("%011o\0", size));
    put(record, 136, "00000000000\0");
    record[156] = (byte) type;
    put(record, 257, magic);
    put(record, 263, version);
    if (type == 'S') {
      record[482] = (byte) (extended ? 1 : 0);
      put(record, 483, String.format("%011o\0", size));
    }
    put(record, 148, "        ");
    long sum = 0;
    for (byte b : record) {
      sum += b & 0xff;
    }
    put(record, 148, String.format("%06o\0 ", sum));
    return record;
  }

  private static void put(byte[] record, int offset, String text) {
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(bytes, 0, record, offset, bytes.length);
  }
}
