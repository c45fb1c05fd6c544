package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.DirectConvPlan;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.Operand;

import java.util.List;

/**
 * Convolution on the device, f32: an ungrouped one as an implicit GEMM ({@link ConvGemmShader}, split along K
 * where it has few tiles and a long K, then the copies summed in order); a grouped one ({@link ConvShader}) with a
 * work group per output element for long sums ({@link #LONG_SUM}), else an invocation per output element. Returns {@code null}
 * (the cpu engine runs it, counted) past {@link DirectConvPlan#MAX_RANK} spatial axes, 32-bit indices or
 * a bindable buffer's size. Other float types are not offered in the capabilities, so the front end
 * decomposes them as before.
 */
final class ConvKernels {
    private final VulkanBackend b;

    /**
     * Products per output element from which a work group computes each one ({@link ConvShader#perGroup}): a weight
     * gradient's sums are this long, and its outputs too few to fill the device one invocation each.
     */
    static final long LONG_SUM = 2048;

    /**
     * Whether ungrouped convolutions run as implicit GEMMs ({@link ConvGemmShader}); {@code -Djburn.vulkan.convGemm=false}
     * runs them on the per-output kernels as before, to compare.
     */
    volatile boolean gemm = !"false".equalsIgnoreCase(System.getProperty("jburn.vulkan.convGemm"));

    /** Work groups below which an implicit GEMM with a long K is split along K ({@link #splits}). */
    static final int SPLIT_BELOW_GROUPS = 128;

    /**
     * About how many work groups a split implicit GEMM runs ({@link #splits}); {@code -Djburn.vulkan.convSplitGroups=N}
     * to compare.
     */
    static final int SPLIT_GROUPS = Integer.getInteger("jburn.vulkan.convSplitGroups", 256);

    /** The most floats the split's copies may take together (32 MiB): more shares cost more to write and add than they save. */
    static final long SPLIT_COPY_FLOATS = 8L << 20;

    /**
     * Every implicit GEMM in this order instead of the one its input's layout picks ({@link ConvGemmShader.Order#of}):
     * for tests, and {@code -Djburn.vulkan.convOrder=channel_major|tap_major} to compare.
     */
    volatile ConvGemmShader.Order orderOverride = orderProperty(System.getProperty("jburn.vulkan.convOrder"));

    /** The order {@code -Djburn.vulkan.convOrder} names, {@code null} when unset. */
    static ConvGemmShader.Order orderProperty(String v) {
        if (v == null || v.isBlank()) return null;
        for (ConvGemmShader.Order o : ConvGemmShader.Order.values()) if (o.name().equalsIgnoreCase(v.trim())) return o;
        throw new dev.jburn.JBurnException("vulkan", "-Djburn.vulkan.convOrder must be channel_major or tap_major, got '" + v + "'");
    }

    /**
     * Whether the implicit GEMM issues each K step's loads before the step before it multiplies
     * ({@link ConvGemmShader#source(int, ConvGemmShader.Order, boolean)}); {@code -Djburn.vulkan.convPrefetch=false} to
     * compare. On an H100 the small CNN's step at batch 1024 (device time, one run each): its second input cotangent 964
     * against 977 µs, its weight gradients 401 and 395 against 421 and 421; at batch 128 the same within 2%. (A 32 × 128
     * tile for at most 32 output channels, measured in the same call, was slower: 1,336 against 977 µs.)
     */
    volatile boolean prefetch = !"false".equalsIgnoreCase(System.getProperty("jburn.vulkan.convPrefetch"));

    /** The implicit GEMM's pipeline names and keys by rank and form ({@link #form}), made once (a name built per call showed in the host profile). */
    private static final String[][] PIPELINE_NAMES = new String[DirectConvPlan.MAX_RANK + 1][ConvGemmShader.Order.values().length * 2];
    private static final Object[][] PIPELINE_KEYS = new Object[DirectConvPlan.MAX_RANK + 1][ConvGemmShader.Order.values().length * 2];

    /** The index of an order and prefetch choice in the pipeline tables. */
    private static int form(ConvGemmShader.Order o, boolean prefetch) { return o.ordinal() * 2 + (prefetch ? 1 : 0); }

    static {
        for (int r = 0; r <= DirectConvPlan.MAX_RANK; r++) {
            for (ConvGemmShader.Order o : ConvGemmShader.Order.values()) {
                for (boolean pf : new boolean[] {false, true}) {
                    PIPELINE_NAMES[r][form(o, pf)] = "conv-gemm-f32-r" + r + "-" + o.name().toLowerCase(java.util.Locale.ROOT) + (pf ? "-prefetch" : "");
                    PIPELINE_KEYS[r][form(o, pf)] = List.of("conv-gemm-f32", r, o, pf);
                }
            }
        }
    }

    /** Implicit-GEMM dispatches by {@link ConvGemmShader.Order} (for tests: which order a layout picks). */
    final java.util.concurrent.atomic.AtomicLongArray orderRuns = new java.util.concurrent.atomic.AtomicLongArray(ConvGemmShader.Order.values().length);

    /** Implicit-GEMM dispatches split along K (for tests: which form ran). */
    final java.util.concurrent.atomic.AtomicLong splitRuns = new java.util.concurrent.atomic.AtomicLong();

    /** Implicit-GEMM dispatches in all: the sum of {@link #orderRuns}. */
    long gemmRuns() {
        long n = 0;
        for (int i = 0; i < orderRuns.length(); i++) n += orderRuns.get(i);
        return n;
    }

    ConvKernels(VulkanBackend b) { this.b = b; }

    /**
     * Into how many shares of K (each a multiple of 16, the tile's K step, and at least 256 long) an implicit GEMM
     * of {@code groups} work groups is split so that about {@code target} work groups run: a weight gradient's
     * {@code [O, C·taps]} output is a handful of tiles over a K of batch × output plane (the small CNN's second one: 5
     * tiles, K = 15,488). 1 when the product has groups enough or K is short. {@code target}: the work groups to aim
     * at ({@link #SPLIT_GROUPS} in use); at most {@code maxParts} shares.
     */
    static int splits(long groups, long k, int target, long maxParts) {
        if (groups >= SPLIT_BELOW_GROUPS || k < 512) return 1;
        long parts = Math.min(Math.min((target + groups - 1) / groups, k / 256), maxParts);
        return (int) Math.max(1, Math.min(parts, 4096));
    }

    /** The share of K each of {@code parts} work groups along z sums: a multiple of 16. */
    static long share(long k, int parts) {
        long s = (k + parts - 1) / parts;
        return (s + 15) / 16 * 16;
    }

    /**
     * The convolution {@code words} describe, its operands and result laid out as {@code st} says, as one
     * implicit-GEMM dispatch ({@link ConvGemmShader}), then the ordered sum of the split's copies where K is split;
     * {@code null} where the grid, a stride or the copies' size is past the device's limits. The caller has checked
     * that the buffers are bindable and the sums not empty ({@link #strided}); {@code size} is the output's element count.
     */
    DeviceBuffer implicitGemm(DeviceBuffer x, DeviceBuffer k, int[] words, ConvGemmShader.Strides st, long size) {
        int rank = words[0];
        long m = words[1], n = (long) words[5] * words[10], kk = DirectConvPlan.productsPerOutput(words);
        long gx = (n + ConvGemmShader.TILE - 1) / ConvGemmShader.TILE, gy = (m + ConvGemmShader.TILE - 1) / ConvGemmShader.TILE;
        if (gx > b.dev.features.maxWorkGroupCountX() || gy > 65535 || b.dev.maxSharedBytes < ConvGemmShader.SHARED_BYTES) return null;
        int parts = splits(gx * gy, kk, SPLIT_GROUPS, Math.max(1, SPLIT_COPY_FLOATS / size));
        long share = share(kk, parts);
        parts = (int) ((kk + share - 1) / share);
        if (parts > 1 && (parts * size >= Integer.MAX_VALUE || !b.movement.bindable(4L * parts * size))) {
            parts = 1;
            share = kk;
        }
        int[] params = ConvGemmShader.params(words, st, share);
        if (params == null) return null;
        ConvGemmShader.Order order = orderOverride != null ? orderOverride : ConvGemmShader.Order.of(st.x(), words[3]);
        boolean pf = prefetch;
        int form = form(order, pf);
        Pipelines.Pipeline p = b.pipelines.get("conv", PIPELINE_NAMES[rank][form], PIPELINE_KEYS[rank][form],
                () -> FloatControls.apply(ConvGemmShader.source(rank, order, pf), b.dev.features), 4, true);
        DeviceBuffer y = b.memory.allocateUninitialized("conv", 4L * parts * size);
        int z = parts;
        try {
            b.queue.submit("conv", r -> r.dispatch("conv", p, List.of(x, k, y), CommandQueue.writes(2), params, (int) gx, (int) gy, z));
        } catch (RuntimeException e) {
            y.release();
            throw e;
        }
        orderRuns.incrementAndGet(order.ordinal());
        if (parts == 1) return y;
        splitRuns.incrementAndGet();
        try {
            DeviceBuffer sum = b.elementwise.reduce(dev.jburn.op.ReduceOp.SUM, new Operand(y, DType.F32, Shape.of(parts, size)), new int[] {0}, DType.F32);
            return sum; // null: past the reduction's limits, the per-output kernels run it
        } finally {
            y.release();
        }
    }

    /**
     * The ungrouped convolution {@code words} describe on {@code x} and {@code k}, laid out as {@code st} says (a
     * channels-last group, {@link ChannelsLastConvs}), as an implicit GEMM; {@code null} past the device's limits.
     */
    DeviceBuffer strided(Operand x, Operand k, int[] words, ConvGemmShader.Strides st) {
        if (!bindable(words, x, k)) return null;
        DeviceBuffer trivial = trivial(words);
        if (trivial != null) return trivial;
        return implicitGemm(VulkanBackend.device(x.buffer(), "conv"), VulkanBackend.device(k.buffer(), "conv"), words, st,
                DirectConvPlan.outputSize(words));
    }

    /** Whether the output of {@code words} and both operands fit a binding. */
    private boolean bindable(int[] words, Operand x, Operand k) {
        MovementKernels m = b.movement;
        return m.bindable(4 * DirectConvPlan.outputSize(words)) && m.bindable(x.buffer().byteSize()) && m.bindable(k.buffer().byteSize());
    }

    /** The result of a convolution with no output (empty) or with empty sums (zeros); {@code null} when it has work to do. */
    private DeviceBuffer trivial(int[] words) {
        long size = DirectConvPlan.outputSize(words);
        if (size == 0) return b.memory.allocateUninitialized("conv", 0);
        if (DirectConvPlan.productsPerOutput(words) == 0) return b.memory.allocate("conv", 4 * size);
        return null;
    }

    static boolean supports(DType t) { return t == DType.F32; }

    DeviceBuffer conv(Operand input, Operand kernel, ConvSpec spec, DType out) {
        if (!supports(out) || input.dtype() != out || kernel.dtype() != out) return null;
        int[] words = DirectConvPlan.params(input.shape(), kernel.shape(), spec);
        if (words == null) return null;
        if (!bindable(words, input, kernel)) return null;
        DeviceBuffer trivial = trivial(words);
        if (trivial != null) return trivial;
        long size = DirectConvPlan.outputSize(words);
        DeviceBuffer x = VulkanBackend.device(input.buffer(), "conv"), k = VulkanBackend.device(kernel.buffer(), "conv");
        if (gemm && words[1] == words[2] && words[6] == 0 && words[7] == 0) {
            DeviceBuffer r = implicitGemm(x, k, words, ConvGemmShader.Strides.canonical(words), size);
            if (r != null) return r;
        }
        DeviceBuffer y = b.memory.allocateUninitialized("conv", 4 * size);
        try {
            if (DirectConvPlan.productsPerOutput(words) >= LONG_SUM && size <= 65535L * 65535L) {
                Pipelines.Pipeline p = b.pipelines.get("conv", "conv-f32-group", "conv-f32-group",
                        () -> FloatControls.apply(ConvShader.perGroup(), b.dev.features), 4, true);
                int gx = (int) Math.min(size, 65535), gy = (int) ((size + gx - 1) / gx);
                b.queue.submit("conv", r -> r.dispatch("conv", p, List.of(x, k, y), CommandQueue.writes(2), words, gx, gy, 1));
            } else {
                Pipelines.Pipeline p = b.pipelines.get("conv", "conv-f32", "conv-f32",
                        () -> FloatControls.apply(ConvShader.perOutput(), b.dev.features), 4, true);
                int gx = b.movement.groups(size); // a grid-stride loop of work groups of 256, as the movement shaders'
                b.queue.submit("conv", r -> r.dispatch("conv", p, List.of(x, k, y), CommandQueue.writes(2), words, gx, 1, 1));
            }
            return y;
        } catch (RuntimeException e) {
            y.release();
            throw e;
        }
    }
}
