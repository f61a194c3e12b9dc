package dev.capstan.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RequestGuardTest {
  private static final HostAllowList LOOPBACK =
      HostAllowList.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 9595), List.of());
  private final RequestGuard guard = new RequestGuard(new SecureRandom(), LOOPBACK);

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
        guard.token(session), new RequestGuard(new SecureRandom(), LOOPBACK).token(session));
    assertNotEquals(guard.token(session), guard.token(guard.newSession()));
  }
}
