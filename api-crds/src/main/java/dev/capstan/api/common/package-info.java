/** Types shared by the Kustomization and GitRepository APIs. */
package dev.capstan.api.common;
