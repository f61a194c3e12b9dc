package dev.capstan.health;

/** The status rule of one built-in kind; runs after the generation and standard-condition steps. */
@FunctionalInterface
interface KindRule {
  ResourceStatus evaluate(ObjectView object);
}
