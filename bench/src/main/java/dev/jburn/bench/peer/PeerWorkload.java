package dev.jburn.bench.peer;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import dev.jburn.Engine;
import dev.jburn.Tensor;

/**
 * One unit of work that {@link dev.jburn.bench.PeerBench} times on every peer: the same shapes and dtype (f32) in
 * each runtime, inputs generated deterministically in that runtime, and a cheap correctness invariant per runtime.
 * A side that a runtime cannot run says why ({@link PeerUnavailable} or {@link PythonCode#unavailable}) and shows up
 * as an "n/a" cell instead of a number.
 */
public interface PeerWorkload {
    /** The group that {@code --only} selects, e.g. {@code "gemm"}. */
    String group();

    /** The row label, unique in a run, e.g. {@code "gemm 1024"}. */
    String name();

    /** Shapes and dtype, e.g. {@code "f32 [1024,1024]·[1024,1024]"}. */
    String shape();

    /** Floating-point operations of one call (for GFLOP/s), or 0 when a FLOP rate means nothing for this work. */
    double flops();

    /** Makes JBurn's inputs on {@code cpu} and returns the timed call; the case owns (and closes) its inputs. */
    TimedCase<Tensor> jburn(Engine cpu) throws PeerUnavailable;

    /** The numpy side (run by {@code harness.py} with {@code PEER = "numpy"}). */
    PythonCode numpy();

    /** The PyTorch side (run by {@code harness.py} with {@code PEER = "torch"}). */
    PythonCode torch();

    /** Makes DJL's inputs in {@code manager} and returns the timed call (runs in the DJL worker process only). */
    TimedCase<NDArray> djl(NDManager manager) throws PeerUnavailable;
}
