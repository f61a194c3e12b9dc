package dev.capstan.health.kstatus;

import dev.capstan.health.status.ObjectView;
import dev.capstan.health.status.ResourceStatus;

/** The status rule of one built-in kind; runs after the generation and standard-condition steps. */
@FunctionalInterface
interface KindRule {
  ResourceStatus evaluate(ObjectView object);
}
