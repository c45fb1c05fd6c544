package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.spi.ConvSpec;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@link HostKernelCheck}'s family for the col2im kernel ({@link ChannelsLastCol2im}): compiled as host C++, run on
 * cols of mixed magnitudes (so that another summation order would round differently), and compared bit for bit with
 * a Java loop adding {@link ChannelsLastCol2im#sources} in the same order, in F32 and F64, on 1 to 3 spatial axes:
 * full padding (the engine's case, including the small CNN's conv2 input cotangent at batch 2), positions fewer
 * than taps, odd channel counts, batch 1, 1-tap kernels, and paddings the engine does not send there yet
 * (same, asymmetric, none) since the kernel takes them.
 */
final class Col2imHostCheck {
    private Col2imHostCheck() {}

    private record Case(Shape x, Shape w, ConvSpec spec, Shape out) {
        /** {@code x [n, u..., 2]} by {@code w [co, 2, k...]}, padded {@code lo}, {@code hi}. */
        static Case of(int n, int[] u, int co, int[] k, int[] lo, int[] hi) {
            int r = u.length;
            int[] xd = new int[r + 2], wd = new int[r + 2], od = new int[r + 2], ones = new int[r];
            xd[0] = od[0] = n;
            xd[r + 1] = wd[1] = 2;
            wd[0] = od[r + 1] = co;
            for (int j = 0; j < r; j++) {
                xd[1 + j] = u[j];
                wd[2 + j] = k[j];
                od[1 + j] = u[j] + lo[j] + hi[j] - k[j] + 1;
                ones[j] = 1;
            }
            return new Case(Shape.of(xd), Shape.of(wd), new ConvSpec(ones, lo, hi, ones, ones, 1, 1), Shape.of(od));
        }

        /** Full padding: the transposed conv of a valid one. */
        static Case full(int n, int[] u, int co, int[] k) {
            int[] p = new int[k.length];
            for (int j = 0; j < k.length; j++) p[j] = k[j] - 1;
            return of(n, u, co, k, p, p);
        }
    }

    static List<Case> cases() {
        return List.of(
                Case.full(1, new int[] {5}, 3, new int[] {3}),
                Case.full(2, new int[] {1}, 5, new int[] {4}),
                Case.full(3, new int[] {7}, 1, new int[] {1}),
                Case.of(2, new int[] {6}, 7, new int[] {3}, new int[] {1}, new int[] {0}),
                Case.full(2, new int[] {11, 11}, 32, new int[] {3, 3}),
                Case.full(1, new int[] {4, 3}, 7, new int[] {3, 3}),
                Case.full(3, new int[] {2, 5}, 1, new int[] {3, 2}),
                Case.of(1, new int[] {5, 5}, 3, new int[] {3, 3}, new int[] {1, 1}, new int[] {1, 1}),
                Case.of(2, new int[] {3, 4}, 5, new int[] {2, 3}, new int[] {1, 0}, new int[] {0, 2}),
                Case.of(1, new int[] {4, 4}, 3, new int[] {2, 2}, new int[] {0, 0}, new int[] {0, 0}),
                Case.full(1, new int[] {2, 3, 2}, 3, new int[] {2, 2, 3}),
                Case.full(2, new int[] {3, 1, 2}, 5, new int[] {3, 2, 1}),
                Case.of(1, new int[] {3, 2, 4}, 9, new int[] {2, 1, 3}, new int[] {1, 0, 2}, new int[] {0, 0, 1}));
    }

    /** Runs every case in F32 and F64; returns the mismatching cases, or -1 when the host compiler failed. */
    static int check(String cxx) throws Exception {
        Path dir = HostKernelCheck.tempDir("jburn-hostc");
        Path src = dir.resolve("col2im.cpp"), lib = dir.resolve("libcol2im.so");
        Files.writeString(src, CudaHostShim.THREAD + ChannelsLastCol2im.SOURCE);
        if (!HostKernelCheck.compile(cxx, src, lib, "col2im", "-std=c++17", "-ffp-contract=off")) return -1;
        Random rnd = new Random(41);
        int mismatches = 0, run = 0;
        try (Arena arena = Arena.ofShared()) {
            SymbolLookup lookup = SymbolLookup.libraryLookup(lib, arena);
            Function<long[], MemorySegment> ints = v -> arena.allocateFrom(JAVA_INT, FastDivisors.ints(v));
            for (Case c : cases()) {
                ChannelsLastCol2im.Geometry g = ChannelsLastCol2im.Geometry.of(c.x(), c.w(), c.spec(), c.out());
                if (g == null) throw new IllegalStateException("no col2im geometry for " + c);
                int n = Math.toIntExact(g.size()), colsSize = Math.toIntExact(g.rows() * g.columns());
                for (DType t : List.of(DType.F32, DType.F64)) {
                    boolean f32 = t == DType.F32;
                    double[] cols = new double[colsSize];
                    // magnitudes from 1e-4 to 1e4: a sum in another order rounds differently
                    for (int i = 0; i < colsSize; i++) cols[i] = (rnd.nextDouble() - 0.5) * Math.pow(10, rnd.nextInt(9) - 4);
                    MemorySegment in = f32 ? arena.allocate(JAVA_FLOAT, colsSize) : arena.allocate(JAVA_DOUBLE, colsSize);
                    for (int i = 0; i < colsSize; i++) {
                        if (f32) in.setAtIndex(JAVA_FLOAT, i, (float) cols[i]);
                        else in.setAtIndex(JAVA_DOUBLE, i, cols[i]);
                    }
                    MemorySegment out = arena.allocate((long) n * t.byteSize(), 8);
                    MethodHandle h = Linker.nativeLinker().downcallHandle(lookup.find(ChannelsLastCol2im.entry(t, g.u().length)).orElseThrow(),
                            FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_INT, WindowCheckCases.DIVS, WindowCheckCases.INTS, WindowCheckCases.INTS,
                                    WindowCheckCases.INTS, WindowCheckCases.INTS, WindowCheckCases.INTS, JAVA_INT));
                    try {
                        h.invokeWithArguments(in, out, n, arena.allocateFrom(JAVA_INT, FastDivisors.struct(g.out())), ints.apply(g.u()), ints.apply(g.k()),
                                ints.apply(g.lo()), ints.apply(g.uStep()), ints.apply(g.tStep()), (int) g.batchStep());
                    } catch (Throwable e) {
                        throw new IllegalStateException(e);
                    }
                    int bad = 0, first = -1;
                    for (int i = 0; i < n; i++) {
                        long[] from = ChannelsLastCol2im.sources(i, g);
                        boolean same;
                        if (f32) {
                            float acc = 0;
                            for (long s : from) acc += in.getAtIndex(JAVA_FLOAT, s);
                            same = Float.floatToRawIntBits(acc) == Float.floatToRawIntBits(out.getAtIndex(JAVA_FLOAT, i));
                        } else {
                            double acc = 0;
                            for (long s : from) acc += in.getAtIndex(JAVA_DOUBLE, s);
                            same = Double.doubleToRawLongBits(acc) == Double.doubleToRawLongBits(out.getAtIndex(JAVA_DOUBLE, i));
                        }
                        if (!same && bad++ == 0) first = i;
                    }
                    run++;
                    if (bad > 0) {
                        mismatches++;
                        System.out.println("MISMATCH col2im:" + t.shortName() + " " + c.x() + " -> " + c.out() + " pads " + java.util.Arrays.toString(g.lo())
                                + ": " + bad + " of " + n + " elements, first " + first);
                    }
                }
            }
        }
        System.out.println(run + " col2im cases run on the host, " + mismatches + " mismatches");
        return mismatches;
    }
}
