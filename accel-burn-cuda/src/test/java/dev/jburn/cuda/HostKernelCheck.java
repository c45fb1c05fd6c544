package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.kernels.DeviceFeatures;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.ElementwiseKernel;
import dev.jburn.kernels.Emitter;
import dev.jburn.kernels.KernelSource;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Runs the eager element-wise kernels the engine generates on the CPU, where there is no GPU: the
 * CUDA sources are compiled by the host C++ compiler with a few shims (the CUDA intrinsics they use,
 * one block of one thread, whose grid-stride loop then covers every element), loaded through FFM
 * and called with the same arguments the engine passes to {@code cuLaunchKernel}; their results are
 * compared with the cpu engine's on edge-case inputs (±0, ±Inf, NaN, subnormals, extremes). Host
 * math libraries differ from CUDA's by an ulp or two, so transcendental results are compared with a
 * tolerance; everything else must match bit for bit (any NaN matches any NaN).
 *
 * <p>Usage: {@code java ... dev.jburn.cuda.HostKernelCheck [g++]}; prints each mismatch.
 */
public final class HostKernelCheck {
    private static final String SHIM = """
            #include <cmath>
            #include <math.h>
            #include <cstring>
            using std::isnan; using std::isinf;
            struct jb_dim3 { unsigned x, y, z; };
            static const jb_dim3 blockIdx = {0, 0, 0}, threadIdx = {0, 0, 0}, gridDim = {1, 1, 1}, blockDim = {1, 1, 1};
            #define __global__
            #define __device__
            #define __forceinline__ inline
            static inline float __uint_as_float(unsigned u) { float f; std::memcpy(&f, &u, 4); return f; }
            static inline unsigned __float_as_uint(float f) { unsigned u; std::memcpy(&u, &f, 4); return u; }
            static inline long long __double_as_longlong(double d) { long long u; std::memcpy(&u, &d, 8); return u; }
            static inline double __longlong_as_double(long long u) { double d; std::memcpy(&d, &u, 8); return d; }
            static inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned)x); }
            static inline int __popc(unsigned x) { return __builtin_popcount(x); }
            static inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
            static inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
            """;

    private record Case(String label, KernelSource source, List<DType> inputs, DType out, boolean approximate,
                        BiFunction<Backend, List<Operand>, Buffer> oracle) {}

    private HostKernelCheck() {}

    private static boolean transcendental(UnaryOp u) {
        return switch (u) {
            case EXP, EXPM1, LOG, LOG1P, SQRT, RSQRT, CBRT, SIN, COS, TAN, ASIN, ACOS, ATAN, SINH, COSH, TANH,
                 ASINH, ACOSH, ATANH, SIGMOID, ERF, ERFC, ERF_INV -> true;
            default -> false;
        };
    }

    public static void main(String[] args) throws Exception {
        String cxx = args.length > 0 ? args[0] : "g++";
        int n = 64;
        Shape flat = Shape.of(n), scalar = Shape.of();
        List<Case> cases = new ArrayList<>();
        for (DType t : DType.values()) {
            for (UnaryOp u : UnaryOp.values()) {
                DType out;
                try { out = u.resultType(t); } catch (RuntimeException e) { continue; }
                if (u == UnaryOp.ERF_INV && t == DType.F64) continue; // host libm has no erfinv
                KernelSource s = emit(ElementwiseKernel.unary(u, t, out, flat));
                if (s != null) cases.add(new Case("unary " + u.opName() + ":" + t.shortName(), s, List.of(t), out,
                        transcendental(u) || u == UnaryOp.ERF_INV, (b, in) -> b.unary(u, in.get(0), out)));
            }
            for (BinaryOp o : BinaryOp.values()) {
                DType out = o.resultType(t);
                if (t == DType.PRED && !(o.isComparison() || o.isLogical() || o == BinaryOp.MIN || o == BinaryOp.MAX
                        || o == BinaryOp.BITWISE_AND || o == BinaryOp.BITWISE_OR || o == BinaryOp.BITWISE_XOR)) {
                    continue; // the engine sends these to the cpu engine (GeneratedKernels.binary)
                }
                KernelSource s = emit(ElementwiseKernel.binary(o, t, flat, flat, flat, out));
                boolean approx = o == BinaryOp.POW || o == BinaryOp.ATAN2;
                if (s != null) cases.add(new Case("binary " + o.opName() + ":" + t.shortName(), s, List.of(t, t), out, approx,
                        (b, in) -> b.binary(o, in.get(0), in.get(1), flat, out)));
                KernelSource sc = emit(ElementwiseKernel.binary(o, t, flat, scalar, flat, out));
                if (sc != null) cases.add(new Case("binary " + o.opName() + ":" + t.shortName() + " (b scalar)", sc, List.of(t, t), out, approx,
                        (b, in) -> b.binary(o, in.get(0), new Operand(in.get(1).buffer(), t, scalar), flat, out)));
            }
            KernelSource sel = emit(ElementwiseKernel.select(flat, flat, flat, flat, t));
            if (sel != null) cases.add(new Case("select:" + t.shortName(), sel, List.of(DType.PRED, t, t), t, false,
                    (b, in) -> b.select(in.get(0), in.get(1), in.get(2), flat)));
            for (DType to : DType.values()) {
                KernelSource s = emit(ElementwiseKernel.cast(t, to, flat));
                if (s != null) cases.add(new Case("cast " + t.shortName() + "->" + to.shortName(), s, List.of(t), to, false,
                        (b, in) -> b.cast(in.get(0), to)));
            }
        }
        Path dir = Files.createTempDirectory("jburn-hostk");
        StringBuilder cpp = new StringBuilder(SHIM);
        for (int i = 0; i < cases.size(); i++) {
            String code = cases.get(i).source().code().replace(Emitter.CUDA_ENTRY, Emitter.CUDA_ENTRY + "_" + i);
            cpp.append("namespace k").append(i).append(" {\n").append(code).append("\n}\n");
        }
        Path src = dir.resolve("kernels.cpp"), lib = dir.resolve("libkernels.so");
        Files.writeString(src, cpp);
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cxx, "-O1", "-std=c++17", "-shared", "-fPIC", "-ffp-contract=off", "-w", "-o", lib.toString(), src.toString())
                .redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            System.out.println("host compile failed:\n" + log.lines().limit(40).reduce("", (a, b) -> a + b + "\n"));
            return;
        }
        System.out.printf("%d kernels compiled on the host in %.1f s%n", cases.size(), (System.nanoTime() - t0) * 1e-9);

        Backend cpu = Engine.select("cpu").backend();
        Random rnd = new Random(11);
        int mismatches = 0;
        try (Arena arena = Arena.ofShared()) {
            SymbolLookup lookup = SymbolLookup.libraryLookup(lib, arena);
            for (int i = 0; i < cases.size(); i++) {
                Case c = cases.get(i);
                List<MemorySegment> ins = new ArrayList<>();
                List<Operand> ops = new ArrayList<>();
                for (DType t : c.inputs()) {
                    MemorySegment m = values(arena, t, n, rnd);
                    ins.add(m);
                    ops.add(new Operand(cpu.upload(m), t, flat));
                }
                MemorySegment out = arena.allocate((long) n * c.out().byteSize(), 8);
                FunctionDescriptor fd = FunctionDescriptor.ofVoid(descriptor(c.inputs().size()));
                MethodHandle h = Linker.nativeLinker().downcallHandle(lookup.find(Emitter.CUDA_ENTRY + "_" + i).orElseThrow(), fd);
                List<Object> callArgs = new ArrayList<>(ins);
                callArgs.add(out);
                callArgs.add((long) n);
                try {
                    h.invokeWithArguments(callArgs);
                } catch (Throwable e) {
                    throw new IllegalStateException(e);
                }
                Buffer expected = c.oracle().apply(cpu, ops);
                MemorySegment exp = arena.allocate(expected.byteSize(), 8);
                cpu.download(expected, 0, exp);
                String bad = compare(c, ins, out, exp, n);
                if (bad != null) {
                    mismatches++;
                    System.out.println("MISMATCH " + c.label() + ": " + bad);
                }
                expected.release();
                for (Operand o : ops) o.buffer().release();
            }
        }
        System.out.println(cases.size() + " kernels run on the host, " + mismatches + " mismatches");
    }

    private static java.lang.foreign.MemoryLayout[] descriptor(int inputs) {
        java.lang.foreign.MemoryLayout[] l = new java.lang.foreign.MemoryLayout[inputs + 2];
        for (int i = 0; i <= inputs; i++) l[i] = ADDRESS;
        l[inputs + 1] = JAVA_LONG;
        return l;
    }

    private static KernelSource emit(ElementwiseKernel k) {
        try {
            return Emitter.unsupported(k, Dialect.CUDA, DeviceFeatures.ALL).isPresent() ? null : Emitter.emit(k, Dialect.CUDA, DeviceFeatures.ALL);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Edge cases first, then random values. */
    private static MemorySegment values(Arena a, DType t, int n, Random r) {
        MemorySegment m = a.allocate((long) n * t.byteSize(), 8);
        double[] edges = {0.0, -0.0, 1, -1, 0.5, -2.5, 2.5, 3, -7, 1e-3, 100, 65504, -65504, 1e30, -1e30,
                Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Float.MIN_VALUE, 1e-42, 0.9999, 2.0000001};
        long[] intEdges = {0, 1, -1, 2, -2, 3, 7, 8, 31, 32, 63, 64, 127, 128, 255, 256, 65535, 65536,
                Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE, 0xFFFFFFFFL};
        for (int i = 0; i < n; i++) {
            if (t.isFloat()) {
                double v = i < edges.length ? edges[i] : (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(7) - 3);
                HostElements.setDouble(m, t, i, v);
            } else if (t.isPred()) {
                HostElements.setLong(m, t, i, r.nextInt(2));
            } else {
                long v = i < intEdges.length ? intEdges[i] : r.nextLong() >> r.nextInt(64);
                HostElements.setLong(m, t, i, v);
            }
        }
        return m;
    }

    private static String compare(Case c, List<MemorySegment> ins, MemorySegment got, MemorySegment exp, int n) {
        DType t = c.out();
        for (int i = 0; i < n; i++) {
            boolean ok;
            String g, e;
            if (t.isFloat()) {
                double gv = HostElements.getDouble(got, t, i), ev = HostElements.getDouble(exp, t, i);
                g = Double.toString(gv);
                e = Double.toString(ev);
                if (Double.isNaN(gv) || Double.isNaN(ev)) ok = Double.isNaN(gv) && Double.isNaN(ev);
                else if (!c.approximate()) ok = Double.doubleToRawLongBits(gv) == Double.doubleToRawLongBits(ev);
                else {
                    double tol = t == DType.F64 ? 1e-12 : t == DType.F32 ? 1e-5 : 1e-2;
                    ok = gv == ev || Math.abs(gv - ev) <= tol * Math.max(Math.abs(ev), 1e-30)
                            || (Math.abs(ev) < 1e-30 && Math.abs(gv) < 1e-30);
                }
            } else {
                long gv = HostElements.getLong(got, t, i), ev = HostElements.getLong(exp, t, i);
                g = Long.toString(gv);
                e = Long.toString(ev);
                ok = gv == ev;
            }
            if (!ok) {
                StringBuilder in = new StringBuilder();
                for (int k = 0; k < ins.size(); k++) {
                    DType it = c.inputs().get(k);
                    int idx = c.label().endsWith("(b scalar)") && k == 1 ? 0 : i;
                    in.append(k == 0 ? "" : ", ").append(it.isFloat() ? Double.toString(HostElements.getDouble(ins.get(k), it, idx))
                            : Long.toString(HostElements.getLong(ins.get(k), it, idx)));
                }
                return "element " + i + " (" + in + "): kernel " + g + ", cpu engine " + e;
            }
        }
        return null;
    }
}
