/** The HelmRelease API (helm.capstan.dev/v2), with the fields of Flux's helm-controller v2. */
package dev.capstan.api.helm;
