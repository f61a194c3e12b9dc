package dev.capstan.engine.ops.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ListenAddressTest {

  @Test
  void parsesTheCommandLineForms() {
    assertEquals(new ListenAddress("", 8080), ListenAddress.parse(":8080"));
    assertEquals(new ListenAddress("127.0.0.1", 9292), ListenAddress.parse("127.0.0.1:9292"));
    assertEquals(new ListenAddress("::1", 0), ListenAddress.parse("[::1]:0"));
    assertTrue(ListenAddress.parse(":8080").socketAddress().getAddress().isAnyLocalAddress());
  }

  @Test
  void badAddressesNameTheProblem() {
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> ListenAddress.parse("8080"))
            .getMessage()
            .contains("has no port"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> ListenAddress.parse(":http"))
            .getMessage()
            .contains("not a number"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> ListenAddress.parse(":70000"))
            .getMessage()
            .contains("outside"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> ListenAddress.parse(" "))
            .getMessage()
            .contains("empty"));
  }
}
