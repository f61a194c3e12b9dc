package dev.capstan.decryption;

/**
 * A comment line of a dotenv or INI document; SOPS encrypts comments but leaves them out of the
 * MAC.
 */
record Comment(String text) {}
