package dev.capstan.kustomize.worker;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * What a worker says first, before it reads a request: how it confined itself.
 *
 * @param os the operating system it was built for (Go's name)
 * @param arch the processor it was built for (Go's name)
 * @param confined whether the kernel confines its files and network (Landlock and seccomp)
 * @param landlock the kernel's Landlock ABI version, 0 without Landlock
 * @param seccomp whether its system call filter is in force
 * @param memoryLimit the memory it may use, in bytes, where the kernel enforces that (0: it does
 *     not)
 * @param problem why it is not confined, when it is not
 * @param charts whether it renders Helm charts (the chart worker; {@link WorkerKind#CHART})
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Hello(
    String os,
    String arch,
    boolean confined,
    int landlock,
    boolean seccomp,
    long memoryLimit,
    String problem,
    boolean charts) {

  public Hello {
    problem = problem == null ? "" : problem;
  }
}
