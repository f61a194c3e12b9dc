package dev.capstan.kustomize.wasm;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Makes, at build time, what instances start from: {@code ImageMaker OUTPUT_DIRECTORY} writes the
 * memory image ({@value MemoryImage#RESOURCE}) and the lean module ({@value LeanModule#RESOURCE})
 * into the package's directory there.
 */
public final class ImageMaker {
  private ImageMaker() {}

  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0]).resolve(ImageMaker.class.getPackageName().replace('.', '/'));
    Path out = dir.resolve(MemoryImage.RESOURCE);
    Path empty = Files.createTempDirectory("kustomize-image");
    try {
      Files.createDirectories(dir);
      try (OutputStream file = Files.newOutputStream(out)) {
        int pages = KustomizeInstance.writeImage(empty, OutputStream.nullOutputStream(), file);
        System.out.printf("kustomize memory image: %d pages that are not all zero%n", pages);
      }
      try (InputStream meta = ImageMaker.class.getResourceAsStream("KustomizeModule.meta")) {
        Files.write(dir.resolve(LeanModule.RESOURCE), LeanModule.withoutData(meta.readAllBytes()));
      }
    } finally {
      Files.deleteIfExists(empty);
    }
  }
}
