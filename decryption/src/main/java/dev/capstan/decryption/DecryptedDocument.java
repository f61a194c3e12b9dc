package dev.capstan.decryption;

/**
 * The plaintext of a SOPS document, in its own format. Never logged: {@link #toString()} hides it.
 */
public record DecryptedDocument(byte[] content) {
  public DecryptedDocument {
    content = content.clone();
  }

  @Override
  public byte[] content() {
    return content.clone();
  }

  @Override
  public String toString() {
    return "DecryptedDocument[" + content.length + " bytes]";
  }
}
