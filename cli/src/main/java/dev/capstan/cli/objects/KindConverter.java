package dev.capstan.cli.objects;

import dev.capstan.cli.cluster.CliException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads the KIND argument ({@code ks}, {@code gitrepo}, ...) for picocli. */
final class KindConverter implements ITypeConverter<CapstanKind<?>> {
  @Override
  public CapstanKind<?> convert(String value) {
    try {
      return CapstanKind.parse(value);
    } catch (CliException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
