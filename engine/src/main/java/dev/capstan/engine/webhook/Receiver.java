package dev.capstan.engine.webhook;

/** A configured receiver with its secret source resolved. */
record Receiver(ReceiverSpec spec, SecretSource secret) {}
