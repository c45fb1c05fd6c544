package dev.jburn.kernels;

import dev.jburn.Shape;

/**
 * How a generated reduction runs, chosen from its shape (shared by the CUDA and Vulkan engines). The
 * emitter's default form gives each output a workgroup of 256 threads; on the H200 that made the small
 * CNN's reductions a third of its CUDA training step: a 2×2 pooling window folded by 256 threads left 252
 * idle (739 µs a launch), and a batch-norm statistic (32 channels of 100,352 elements, channels innermost)
 * ran on 32 blocks, each reading one float per cache line. So:
 * <ul>
 *   <li>{@link Form#THREAD}: one thread per output, for outputs of few elements;</li>
 *   <li>{@link Form#COLUMNS}: one thread per (output, chunk), neighbouring threads on neighbouring outputs, for
 *       outputs that are neighbours in memory (the innermost axis kept), then {@link #finish} folds the
 *       {@code [outputs, parts]} partials;</li>
 *   <li>{@link Form#SPLIT}: {@code parts} workgroups per output, for few outputs of many elements whose elements
 *       are neighbours (the innermost axis reduced), then {@link #finish};</li>
 *   <li>{@link Form#BLOCK}: the default, otherwise.</li>
 * </ul>
 * Splitting changes only the order in which a float sum or product adds up (so only float sums, products,
 * maxima and minima whose producer has the output's type are split: {@link ReductionEmitter#splittable}).
 *
 * <p>How each form is launched over {@code n} outputs: BLOCK and SPLIT as {@link ReductionEmitter#emit} (a
 * workgroup per output, SPLIT's {@code n · parts} partial outputs), THREAD and COLUMNS as an element-wise kernel
 * over {@code n} (COLUMNS: {@code n · parts}) items; the split forms write {@code n · parts} partials of the
 * output type, then {@link #finish} reduces them to {@code n} outputs, after a barrier.
 *
 * <pre>{@code
 * ReductionPlan p = ReductionPlan.of(ReductionKernel.of(SUM, F32, Shape.of(128, 28, 28, 32), new int[] {0, 1, 2}, F32),
 *         Dialect.GLSL, features); // COLUMNS, 2048 parts, then a BLOCK finish over [32, 2048]
 * }</pre>
 *
 * @param form   the kernel form
 * @param parts  chunks per output when split, else 1
 * @param main   the kernel that reads the input
 * @param finish the plan folding the {@code [outputs, parts]} partials (split forms only), else null
 */
public record ReductionPlan(Form form, int parts, KernelSource main, ReductionPlan finish) {
    /** The kernel forms. */
    public enum Form { BLOCK, THREAD, COLUMNS, SPLIT }

    /** Elements per output up to which one thread folds an output alone. */
    static final long THREAD_MAX_COUNT = 64;
    /** With this many outputs, one thread per output keeps the GPU busy for outputs of up to {@link #THREAD_MANY_COUNT} elements. */
    static final long THREAD_MANY_OUTPUTS = 16_384, THREAD_MANY_COUNT = 1024;
    /** Columns: at least this many elements in all, at least this many elements a thread. */
    static final long COLUMNS_MIN_ELEMENTS = 65_536, COLUMNS_MIN_CHUNK = 16;
    /** Columns: about this many threads ({@code -Djburn.reduce.columnsThreads}, for comparisons). */
    static final long COLUMNS_THREADS = Math.max(1024, Long.getLong("jburn.reduce.columnsThreads", 65_536));
    /** Below this many outputs, outputs of at least {@link #SPLIT_MIN_COUNT} elements are split across blocks. */
    static final long SPLIT_MAX_OUTPUTS = 512, SPLIT_MIN_COUNT = 8192;
    /** Split: about this many blocks in all, at least this many elements a block. */
    static final long SPLIT_BLOCKS = 1024, SPLIT_ELEMENTS_PER_BLOCK = 4096;

    /** The form for {@code outputs} results of {@code count} elements each. */
    public static Form form(long outputs, long count, boolean splittable, boolean innermostKept) {
        if (count <= THREAD_MAX_COUNT || (outputs >= THREAD_MANY_OUTPUTS && count <= THREAD_MANY_COUNT)) return Form.THREAD;
        if (splittable && innermostKept && outputs < COLUMNS_THREADS && outputs * count >= COLUMNS_MIN_ELEMENTS
                && count >= 2 * COLUMNS_MIN_CHUNK) return Form.COLUMNS;
        if (splittable && outputs < SPLIT_MAX_OUTPUTS && count >= SPLIT_MIN_COUNT) return Form.SPLIT;
        return Form.BLOCK;
    }

    /** The form {@link #of} picks for {@code k}, without emitting anything. */
    public static Form form(ReductionKernel k) {
        return form(k.outShape().size(), k.reducedCount(), ReductionEmitter.splittable(k), ReductionEmitter.innermostKept(k));
    }

    /** Chunks per output for {@code form}: enough work items to fill the GPU, each with enough elements. */
    public static int parts(Form form, long outputs, long count) {
        return switch (form) {
            case COLUMNS -> (int) Math.max(2, Math.min((COLUMNS_THREADS + outputs - 1) / outputs, count / COLUMNS_MIN_CHUNK));
            case SPLIT -> (int) Math.max(2, Math.min((SPLIT_BLOCKS + outputs - 1) / outputs, count / SPLIT_ELEMENTS_PER_BLOCK));
            case BLOCK, THREAD -> 1;
        };
    }

    /**
     * The plan and its sources for {@code k} in dialect {@code d} (CUDA or GLSL) on a device with {@code f};
     * throws {@code IllegalArgumentException} where the emitter cannot write it ({@link ReductionEmitter#unsupported}).
     */
    public static ReductionPlan of(ReductionKernel k, Dialect d, DeviceFeatures f) {
        long outputs = k.outShape().size(), count = k.reducedCount();
        Form form = form(k);
        int parts = parts(form, outputs, count);
        return switch (form) {
            case BLOCK -> new ReductionPlan(form, 1, ReductionEmitter.emit(k, d, f), null);
            case THREAD -> new ReductionPlan(form, 1, ReductionEmitter.emitPerThread(k, d, f), null);
            case COLUMNS -> columns(k, d, f, parts);
            case SPLIT -> new ReductionPlan(form, parts, ReductionEmitter.emitSplit(k, d, f, parts), rest(k, outputs, parts, d, f));
        };
    }

    /**
     * {@link Form#COLUMNS} for {@code k} with {@code parts} chunks per output instead of the shape's choice (benchmarks
     * compare part counts on the same input); {@code k} must be splittable with its innermost axis kept.
     */
    public static ReductionPlan columns(ReductionKernel k, Dialect d, DeviceFeatures f, int parts) {
        if (!ReductionEmitter.innermostKept(k)) throw new IllegalArgumentException("columns need the innermost axis kept: " + k);
        return new ReductionPlan(Form.COLUMNS, parts, ReductionEmitter.emitColumns(k, d, f, parts), rest(k, k.outShape().size(), parts, d, f));
    }

    /** The reduction of the {@code [outputs, parts]} partials over their last axis. */
    private static ReductionPlan rest(ReductionKernel k, long outputs, int parts, Dialect d, DeviceFeatures f) {
        return of(finishing(k, outputs, parts), d, f);
    }

    /** The kernel that folds the {@code [outputs, parts]} partials of a split {@code k} over their last axis. */
    public static ReductionKernel finishing(ReductionKernel k, long outputs, int parts) {
        return ReductionKernel.of(k.op(), k.outType(), Shape.of(outputs, parts), new int[] {1}, k.outType());
    }
}
