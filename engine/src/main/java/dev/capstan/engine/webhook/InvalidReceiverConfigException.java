package dev.capstan.engine.webhook;

/** The webhook configuration is wrong; the message says where and what. */
public final class InvalidReceiverConfigException extends IllegalArgumentException {
  InvalidReceiverConfigException(String message) {
    super(message);
  }
}
