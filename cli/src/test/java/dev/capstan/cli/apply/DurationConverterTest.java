package dev.capstan.cli.apply;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.capstan.cli.options.DurationConverter;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.TypeConversionException;

class DurationConverterTest {
  private final DurationConverter converter = new DurationConverter();

  @Test
  void readsGoDurations() {
    assertEquals(Duration.ofSeconds(90), converter.convert("90s"));
    assertEquals(Duration.ofSeconds(90), converter.convert("1.5m"));
    assertEquals(Duration.ofMinutes(62), converter.convert("1h2m"));
    assertEquals(Duration.ofMillis(250), converter.convert("250ms"));
  }

  @Test
  void refusesZeroAndWhatIsNotADuration() {
    assertEquals(
        "'0s' must be more than 0s",
        assertThrows(TypeConversionException.class, () -> converter.convert("0s")).getMessage());
    assertTrue(
        assertThrows(TypeConversionException.class, () -> converter.convert("5 minutes"))
            .getMessage()
            .startsWith("invalid duration \"5 minutes\""));
    assertThrows(TypeConversionException.class, () -> converter.convert("-1s"));
    assertThrows(TypeConversionException.class, () -> converter.convert("90"));
  }

  @Test
  void applyTakesTheTimeoutInGoSyntax() {
    ApplyCommand apply = new ApplyCommand();
    new CommandLine(apply).parseArgs("-f", ".", "--timeout", "1.5m");
    assertEquals(Duration.ofSeconds(90), apply.timeout);
  }

  @Test
  void applyRefusesAZeroTimeoutNamingTheOption() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new ApplyCommand());
    cli.setErr(new PrintWriter(err));
    assertEquals(2, cli.execute("-f", ".", "--timeout", "0s"));
    assertTrue(
        err.toString()
            .startsWith("Invalid value for option '--timeout': '0s' must be more than 0s"),
        err.toString());
  }
}
