package dev.capstan.source.oci.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/** Tar+gzip layers written by tests, hostile ones included. */
public final class Layers {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final TarArchiveOutputStream tar;

  public Layers() throws IOException {
    tar = new TarArchiveOutputStream(new GZIPOutputStream(bytes));
    tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
  }

  public Layers file(String name, String content) throws IOException {
    byte[] data = content.getBytes(StandardCharsets.UTF_8);
    TarArchiveEntry entry = new TarArchiveEntry(name, true);
    entry.setSize(data.length);
    entry.setMode(0100644);
    tar.putArchiveEntry(entry);
    tar.write(data);
    tar.closeArchiveEntry();
    return this;
  }

  public Layers directory(String name) throws IOException {
    TarArchiveEntry entry = new TarArchiveEntry(name.endsWith("/") ? name : name + "/", true);
    tar.putArchiveEntry(entry);
    tar.closeArchiveEntry();
    return this;
  }

  public Layers symlink(String name, String target) throws IOException {
    TarArchiveEntry entry = new TarArchiveEntry(name, TarArchiveEntry.LF_SYMLINK, true);
    entry.setLinkName(target);
    tar.putArchiveEntry(entry);
    tar.closeArchiveEntry();
    return this;
  }

  public Layers hardlink(String name, String target) throws IOException {
    TarArchiveEntry entry = new TarArchiveEntry(name, TarArchiveEntry.LF_LINK, true);
    entry.setLinkName(target);
    tar.putArchiveEntry(entry);
    tar.closeArchiveEntry();
    return this;
  }

  public byte[] bytes() throws IOException {
    tar.close();
    return bytes.toByteArray();
  }
}
