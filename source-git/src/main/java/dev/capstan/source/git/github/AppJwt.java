package dev.capstan.source.git.github;

import dev.capstan.source.core.FailureReason;
import dev.capstan.source.core.SourceException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.Signature;
import java.security.interfaces.RSAPrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/**
 * The JSON Web Token a GitHub App authenticates to the API with, as GitHub documents it: RS256,
 * issued by the app's ID, issued a minute in the past (the API's clock may be behind ours) and
 * expiring well within the ten minutes the API accepts.
 */
final class AppJwt {
  static final Duration BACKDATED = Duration.ofSeconds(60);
  static final Duration LIFETIME = Duration.ofMinutes(9);

  private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();
  private static final String HEADER = "{\"alg\":\"RS256\",\"typ\":\"JWT\"}";

  private AppJwt() {}

  /** The signed token, {@code header.claims.signature}, for {@code appId} at {@code now}. */
  static String sign(long appId, RSAPrivateKey key, Instant now) {
    long issued = now.minus(BACKDATED).getEpochSecond();
    long expires = now.plus(LIFETIME).getEpochSecond();
    String claims = "{\"iat\":" + issued + ",\"exp\":" + expires + ",\"iss\":\"" + appId + "\"}";
    String signed = encode(HEADER) + "." + encode(claims);
    try {
      Signature signer = Signature.getInstance("SHA256withRSA");
      signer.initSign(key);
      signer.update(signed.getBytes(StandardCharsets.US_ASCII));
      return signed + "." + URL.encodeToString(signer.sign());
    } catch (InvalidKeyException e) {
      throw new SourceException(
          FailureReason.INVALID_SECRET,
          "the secret's '"
              + GitHubAppSecret.PRIVATE_KEY
              + "' cannot sign a token ("
              + e.getClass().getSimpleName()
              + ")");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM cannot sign with SHA256withRSA", e);
    }
  }

  private static String encode(String json) {
    return URL.encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }
}
