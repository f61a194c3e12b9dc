package dev.capstan.engine.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RequestGuardTest {
  private final RequestGuard guard = new RequestGuard(new SecureRandom(), false);

  @Test
  void loopbackHostsAreServedOthersRefused() {
    assertEquals(Optional.empty(), guard.refuseHost("127.0.0.1:9595"));
    assertEquals(Optional.empty(), guard.refuseHost("localhost:9595"));
    assertEquals(Optional.empty(), guard.refuseHost("[::1]:9595"));
    assertTrue(guard.refuseHost("evil.example:9595").isPresent(), "a rebound DNS name");
    assertTrue(guard.refuseHost("127.0.0.1.evil.example").isPresent());
    assertTrue(guard.refuseHost("").isPresent());
    assertTrue(guard.refuseHost(null).isPresent());
    assertEquals(
        Optional.empty(), new RequestGuard(new SecureRandom(), true).refuseHost("10.0.0.5:9595"));
  }

  @Test
  void anActionNeedsTheSessionsTokenAndTheSameOrigin() {
    String session = guard.newSession();
    String token = guard.token(session);
    String host = "127.0.0.1:9595";

    assertEquals(
        Optional.empty(), guard.refuseAction(host, "http://127.0.0.1:9595", session, token));
    assertTrue(
        guard.refuseAction(host, "http://evil.example", session, token).isPresent(),
        "another site");
    assertTrue(guard.refuseAction(host, null, session, token).isPresent(), "no Origin");
    assertTrue(
        guard.refuseAction(host, "http://127.0.0.1:9595", session, null).isPresent(), "no token");
    assertTrue(
        guard.refuseAction(host, "http://127.0.0.1:9595", null, token).isPresent(), "no cookie");
    String other = guard.newSession();
    assertTrue(
        guard.refuseAction(host, "http://127.0.0.1:9595", other, token).isPresent(),
        "another session's token");
    assertTrue(
        guard
            .refuseAction("evil.example:9595", "http://evil.example:9595", session, token)
            .isPresent());
  }

  @Test
  void tokensDifferPerProcessAndSession() {
    String session = guard.newSession();
    assertNotEquals(
        guard.token(session), new RequestGuard(new SecureRandom(), false).token(session));
    assertNotEquals(guard.token(session), guard.token(guard.newSession()));
  }
}
