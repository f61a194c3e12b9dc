/** Types shared by the Kustomization and source APIs. */
package dev.capstan.api.common;
