package dev.jburn.cuda;

import dev.jburn.kernels.DeviceFeatures;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.KernelSource;
import dev.jburn.kernels.ReductionEmitter;
import dev.jburn.kernels.ReductionKernel;

/**
 * How a generated reduction runs, chosen from its shape: one 256-thread block per output (the
 * emitter's default form), one thread per output for outputs of few elements (a 2×2 pooling window
 * folded by 256 threads left 252 idle: the CNN's pooling reduction took 739 µs on the H200), or
 * split across {@code parts} blocks per output for few outputs of many elements (a batch-norm
 * statistic over 100,352 elements per channel ran on 32 blocks of the H200's 132 SMs), finished by
 * a per-thread reduction of the partial results.
 *
 * @param form   the kernel form
 * @param parts  blocks per output when split, else 1
 * @param main   the kernel that reads the input
 * @param finish the per-thread kernel folding {@code [outputs, parts]} partials (split only), else null
 */
record ReductionPlan(Form form, int parts, KernelSource main, KernelSource finish) {
    /** The kernel forms. */
    enum Form { BLOCK, THREAD, SPLIT }

    /** Elements per output up to which one thread folds an output alone. */
    static final long THREAD_MAX_COUNT = 64;
    /** With this many outputs, one thread per output keeps the GPU busy for outputs of up to {@link #THREAD_MANY_COUNT} elements. */
    static final long THREAD_MANY_OUTPUTS = 16_384, THREAD_MANY_COUNT = 1024;
    /** Below this many outputs, outputs of at least {@link #SPLIT_MIN_COUNT} elements are split. */
    static final long SPLIT_MAX_OUTPUTS = 512, SPLIT_MIN_COUNT = 8192;
    /** Aims: about this many blocks in all, and at least this many elements a block. */
    static final long SPLIT_BLOCKS = 1024, SPLIT_ELEMENTS_PER_BLOCK = 4096;

    /** The form for {@code outputs} results of {@code count} elements each. */
    static Form form(long outputs, long count, boolean splittable) {
        if (count <= THREAD_MAX_COUNT || (outputs >= THREAD_MANY_OUTPUTS && count <= THREAD_MANY_COUNT)) return Form.THREAD;
        if (splittable && outputs < SPLIT_MAX_OUTPUTS && count >= SPLIT_MIN_COUNT) return Form.SPLIT;
        return Form.BLOCK;
    }

    /** Blocks per output for a split reduction: enough to fill the GPU, each with at least 4096 elements. */
    static int parts(long outputs, long count) {
        long byBlocks = (SPLIT_BLOCKS + outputs - 1) / outputs;
        long byWork = count / SPLIT_ELEMENTS_PER_BLOCK;
        return (int) Math.max(2, Math.min(byBlocks, byWork));
    }

    /** The plan and its sources for {@code k}; throws {@code IllegalArgumentException} where the emitter cannot write it. */
    static ReductionPlan of(ReductionKernel k) {
        long outputs = k.outShape().size(), count = k.reducedCount();
        Form form = form(outputs, count, ReductionEmitter.splittable(k));
        return switch (form) {
            case BLOCK -> new ReductionPlan(form, 1, ReductionEmitter.emit(k, Dialect.CUDA, DeviceFeatures.ALL), null);
            case THREAD -> new ReductionPlan(form, 1, ReductionEmitter.emitPerThread(k, Dialect.CUDA, DeviceFeatures.ALL), null);
            case SPLIT -> {
                int parts = parts(outputs, count);
                ReductionKernel rest = ReductionKernel.of(k.op(), k.outType(), dev.jburn.Shape.of(outputs, parts), new int[] {1}, k.outType());
                yield new ReductionPlan(form, parts, ReductionEmitter.emitSplit(k, Dialect.CUDA, DeviceFeatures.ALL, parts),
                        ReductionEmitter.emitPerThread(rest, Dialect.CUDA, DeviceFeatures.ALL));
            }
        };
    }
}
