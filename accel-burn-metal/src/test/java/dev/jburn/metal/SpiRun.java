package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;

/**
 * One backend call run on a {@link MetalBackend} and on the cpu engine, with the same input bits, the
 * outputs compared bit for bit (or within a tolerance): the checks of the hand-written kernels
 * (movement, indexing, arg-reductions, windows, scans, sorts, dots), at the SPI, so every dtype and edge
 * shape (empty, rank 0) is reachable without the front end. On Linux the backend runs over
 * {@link FakeObjc}, whose dispatches run the MSL on the CPU ({@link ClangGpu}); on a Mac it is the real
 * engine on the GPU, so the same tests are the hand-written kernels' first real run. Close it to release
 * the backend and the compiled kernels.
 */
final class SpiRun implements AutoCloseable {
    /** The fake runtime and its CPU "GPU"; null on a Mac. */
    final FakeObjc fake;
    final ClangGpu gpu;
    final MetalBackend metal;
    final Backend cpu = Engine.select("cpu").backend();
    private final Arena arena = Arena.ofShared();
    /** Calls run, and those whose bits differed (each printed). */
    int runs, mismatches;

    /** The real GPU on a Mac; the fake over clang elsewhere. */
    SpiRun() throws java.io.IOException { this(null); }

    /** On a fake GPU of the {@code MTLGPUFamily} values {@code families} (null: the fake's default, an M1-class GPU; or, on a Mac, the real one). */
    SpiRun(java.util.Set<Long> families) throws java.io.IOException {
        if (onMac() && families == null) {
            fake = null;
            gpu = null;
            metal = new MetalBackend(new Objc(Natives.system()));
            return;
        }
        fake = new FakeObjc();
        gpu = new ClangGpu();
        fake.gpu = gpu;
        if (families != null) {
            fake.families.clear();
            fake.families.addAll(families);
        }
        metal = new MetalBackend(new Objc(fake));
    }

    static boolean onMac() { return System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).startsWith("mac"); }

    /** Skips a test that has neither a Mac nor clang. */
    static void assumeRunnable() {
        if (!onMac()) org.junit.jupiter.api.Assumptions.assumeTrue(Clang.present(), Clang.missing());
    }

    /** Where the kernels ran, for the tests' summaries. */
    String where() { return gpu == null ? "on " + metal.deviceName() : "on clang (" + gpu.compiled + " kernels compiled)"; }

    /** How many calls ran on the cpu engine instead. */
    long fallbacks() { return metal.fallbackCounts().values().stream().mapToLong(Long::longValue).sum(); }

    /** An input: its dtype, shape and bits (edge values, then random ones, as the kernel checks use). */
    record Input(DType type, Shape shape, MemorySegment bits) {}

    Input edges(DType t, Shape s, Random rnd) { return new Input(t, s, MslValues.edges(arena, t, s.size(), rnd)); }

    /** An input holding {@code values}, converted to {@code t}. */
    Input of(DType t, Shape s, long... values) {
        MemorySegment m = arena.allocate(Math.max(1, t.byteSize(values.length)), 16);
        for (int i = 0; i < values.length; i++) dev.jburn.spi.HostElements.setLong(m, t, i, values[i]);
        return new Input(t, s, m);
    }

    /** An input of uniform values in [-1, 1) (sums of products stay near 1: a tolerance can be absolute). */
    Input uniform(DType t, Shape s, Random rnd) {
        MemorySegment m = arena.allocate(Math.max(1, t.byteSize(s.size())), 16);
        for (long i = 0; i < s.size(); i++) dev.jburn.spi.HostElements.setDouble(m, t, i, rnd.nextDouble() * 2 - 1);
        return new Input(t, s, m);
    }

    /**
     * {@code op} on both backends, the {@code out} values within {@code tolerance} (relative, at least
     * absolute below 1): for results whose rounding order differs (matrix products).
     */
    boolean compareClose(String label, List<Input> inputs, DType out, double tolerance, BiFunction<Backend, List<Operand>, Buffer> op) {
        return compare(label, inputs, op, (want, got) -> {
            for (long i = 0; i < want.byteSize() / out.byteSize(); i++) {
                double w = dev.jburn.spi.HostElements.getDouble(want, out, i), g = dev.jburn.spi.HostElements.getDouble(got, out, i);
                boolean same = w == g || (Double.isNaN(w) && Double.isNaN(g)); // infinities and NaN exactly
                if (!same && !(Math.abs(w - g) <= tolerance * Math.max(1, Math.abs(w)))) return "at " + i + ": cpu " + w + ", metal " + g;
            }
            return null;
        });
    }

    /**
     * {@code op} on both backends; a mismatch (different bytes, or one side failing) is printed with
     * {@code label} and counted. Returns whether they agreed.
     */
    boolean compare(String label, List<Input> inputs, BiFunction<Backend, List<Operand>, Buffer> op) {
        return compare(label, inputs, op, (want, got) -> {
            long at = want.mismatch(got);
            return at >= 0 ? "bytes differ from offset " + at : null;
        });
    }

    /** {@code op} on both backends, the outputs (of one size) compared by {@code differ} (a message, or null when they agree). */
    private boolean compare(String label, List<Input> inputs, BiFunction<Backend, List<Operand>, Buffer> op,
                            java.util.function.BiFunction<MemorySegment, MemorySegment, String> differ) {
        runs++;
        String cpuResult = null, metalResult = null;
        MemorySegment want = null, got = null;
        try {
            want = run(cpu, inputs, op);
        } catch (RuntimeException e) {
            cpuResult = String.valueOf(e.getMessage());
        }
        try {
            got = run(metal, inputs, op);
        } catch (RuntimeException e) {
            metalResult = String.valueOf(e.getMessage());
        }
        String diff = null;
        if (cpuResult != null || metalResult != null) {
            if ((cpuResult == null) != (metalResult == null)) diff = "cpu: " + (cpuResult == null ? "ok" : cpuResult) + "; metal: " + (metalResult == null ? "ok" : metalResult);
        } else if (want.byteSize() != got.byteSize()) {
            diff = want.byteSize() + " bytes expected, got " + got.byteSize();
        } else {
            diff = differ.apply(want, got);
        }
        if (diff != null) {
            mismatches++;
            System.out.println("MISMATCH " + label + ": " + diff);
        }
        return diff == null;
    }

    private MemorySegment run(Backend b, List<Input> inputs, BiFunction<Backend, List<Operand>, Buffer> op) {
        List<Operand> xs = new ArrayList<>();
        try {
            for (Input in : inputs) {
                MemorySegment bits = in.bits().asSlice(0, in.type().byteSize(in.shape().size()));
                xs.add(new Operand(b.upload(bits), in.type(), in.shape()));
            }
            Buffer r = op.apply(b, xs);
            try {
                MemorySegment out = arena.allocate(Math.max(1, r.byteSize()), 16).asSlice(0, r.byteSize());
                b.download(r, 0, out);
                return out;
            } finally {
                r.release();
            }
        } finally {
            for (Operand x : xs) x.buffer().release();
        }
    }

    /** Random dims of {@code rank}, each in {@code [lo, hi]}. */
    static Shape shape(Random rnd, int rank, int lo, int hi) {
        int[] d = new int[rank];
        for (int i = 0; i < rank; i++) d[i] = lo + rnd.nextInt(hi - lo + 1);
        return Shape.of(d);
    }

    @Override
    public void close() throws java.io.IOException {
        metal.close();
        if (gpu != null) gpu.close();
        arena.close();
    }
}
