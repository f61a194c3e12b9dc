package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class AccessGateTest {
  private final AccessGate gate = new AccessGate(new SecureRandom());

  @Test
  void theTokenIsNewAtEachStartAndLongEnough() {
    String token = gate.token();
    assertEquals(AccessGate.TOKEN_BYTES, Base64.getUrlDecoder().decode(token).length);
    assertTrue(AccessGate.TOKEN_BYTES * 8 >= 128);
    assertNotEquals(token, new AccessGate(new SecureRandom()).token());
    assertFalse(gate.toString().contains(token), "never in a log line by accident");
  }

  @Test
  void nothingIsServedWithoutTheCookieOrTheToken() {
    assertInstanceOf(AccessGate.Refused.class, gate.decide("/", null, null, true));
    assertInstanceOf(AccessGate.Refused.class, gate.decide("/api/overview", "", null, false));
    assertInstanceOf(AccessGate.Refused.class, gate.decide("/", null, "guess", true));
    assertInstanceOf(
        AccessGate.Refused.class, gate.decide("/events", null, gate.token() + "x", false));
  }

  @Test
  void theTokenLetsInOnceAndIsTakenOutOfTheAddress() {
    AccessGate.Decision first = gate.decide("/", "token=" + gate.token(), null, true);

    assertEquals(new AccessGate.Enter("/"), first);
    assertEquals(
        new AccessGate.Enter("/?collapse=a,b&again=1"),
        gate.decide("/", "collapse=a,b&token=" + gate.token() + "&again=1", null, true));
    assertInstanceOf(
        AccessGate.Granted.class, gate.decide("/", null, gate.cookieValue(), true), "the cookie");
    assertInstanceOf(
        AccessGate.Granted.class,
        gate.decide("/api/overview", "token=" + gate.token(), null, false),
        "the token on a fetch: no page to send on");
  }

  @Test
  void aWrongTokenIsRefusedEvenWithTheCookie() {
    assertInstanceOf(
        AccessGate.Refused.class, gate.decide("/", "token=nope", gate.cookieValue(), true));
    assertInstanceOf(
        AccessGate.Refused.class,
        gate.decide("/", "token=" + gate.token() + "&token=nope", null, true));
  }

  @Test
  void theNextAddressIsAlwaysThisServers() {
    String token = "token=" + gate.token();
    assertEquals(new AccessGate.Enter("/"), gate.decide("//evil.example/", token, null, true));
    assertEquals(new AccessGate.Enter("/"), gate.decide("/\\evil.example", token, null, true));
    assertEquals(
        new AccessGate.Enter("/"),
        gate.decide("/", token + "&x=%0d%0aSet-Cookie:%20a", null, true),
        "a query part with other characters is dropped");
    assertFalse(AccessGate.enterPage("/?a=\"><script>").contains("<script>"));
  }

  @Test
  void cookiesOfViewsOnOtherPortsDoNotCollide() {
    assertNotEquals(AccessGate.cookieName(9595), AccessGate.cookieName(9596));
  }
}
