/**
 * Collective communication for data-parallel training: {@link dev.jburn.dist.Communicator} (all-reduce,
 * broadcast, barrier) with {@link dev.jburn.dist.ThreadCommunicator} (replicas as threads of one JVM) and
 * {@link dev.jburn.dist.StoreCommunicator} (processes, through the rendezvous store), native communicators found
 * by {@link dev.jburn.dist.Communicators} ({@code NCCL} for the cuda engine), the torchrun-style rendezvous
 * ({@link dev.jburn.dist.Rendezvous}, {@link dev.jburn.dist.TcpStore}) and the process {@link dev.jburn.dist.Launcher}.
 * It lives beside the tensor API because both the training layer ({@code engine-nn}) and the accelerators
 * ({@code accel-burn-cuda}) see only this module.
 *
 * <pre>{@code
 * List<ThreadCommunicator> group = ThreadCommunicator.group(2);   // or Communicators.create(engine, Rendezvous.fromEnvironment())
 * }</pre>
 */
package dev.jburn.dist;
