package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.op.UnaryOp;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * A fixed workload on the default cpu engine whose results must not depend on how the JVM runs it: every
 * transcendental function, sums, a matrix product, a convolution and a fused Jit graph, in F32 and F64, each
 * reduced to a hash of its result's bits. {@link JitIndependenceTest} runs it in its own (C2-compiled) JVM and in a
 * child JVM with {@code -Xint}; {@code main} prints one {@code name=hash} line per result for the child.
 */
final class JitIndependenceProbe {
    private JitIndependenceProbe() {}

    static final UnaryOp[] TRANSCENDENTAL = {UnaryOp.EXP, UnaryOp.EXPM1, UnaryOp.LOG, UnaryOp.LOG1P, UnaryOp.SIN,
        UnaryOp.COS, UnaryOp.TANH, UnaryOp.SIGMOID};

    /** A fused Jit graph: elementwise chains with transcendental functions, ending in a row sum. */
    private static final CompiledFunction FUSED =
            Jit.compile((a, b) -> a.multiply(b).tanh().add(a.exp()).log().multiply(b).sum(new int[] {1}));

    /** Values in [-12, 12] with NaN, ±0, ±Inf and a few large magnitudes mixed in. */
    static double[] inputs(int n, long seed) {
        Random r = new Random(seed);
        double[] special = {Double.NaN, 0.0, -0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e30, -1e30, 1e-310};
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = r.nextInt(32) == 0 ? special[r.nextInt(special.length)] : r.nextDouble() * 24 - 12;
        return v;
    }

    /** FNV-1a over the results' bits (NaN canonical: a NaN's payload is not part of the contract). */
    static long hash(Tensor t) {
        long h = 0xcbf29ce484222325L;
        for (double d : t.toDoubleArray()) {
            h ^= Double.doubleToLongBits(d);
            h *= 0x100000001b3L;
        }
        return h;
    }

    static Map<String, Long> run() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (DType t : new DType[] {DType.F32, DType.F64}) {
            try (Tensor x = Tensor.fromArray(inputs(1031, 1), t)) {     // 1031: whole vectors and a tail
                for (UnaryOp op : TRANSCENDENTAL) {
                    try (Tensor y = x.apply(op)) {
                        out.put(op.opName() + " " + t.shortName(), hash(y));
                    }
                }
            }
            try (Tensor a = Tensor.fromArray(inputs(40 * 70, 2), t).reshape(40, 70);
                 Tensor b = Tensor.fromArray(inputs(70 * 30, 3), t).reshape(70, 30);
                 Tensor ab = a.dot(b); Tensor rows = a.sum(1); Tensor all = a.sum();
                 Tensor img = Tensor.fromArray(inputs(3 * 12 * 12, 4), t).reshape(1, 3, 12, 12);
                 Tensor k = Tensor.fromArray(inputs(4 * 3 * 3 * 3, 5), t).reshape(4, 3, 3, 3);
                 Tensor conv = img.conv(k)) {
                out.put("dot " + t.shortName(), hash(ab));
                out.put("sum rows " + t.shortName(), hash(rows));
                out.put("sum all " + t.shortName(), hash(all));
                out.put("conv " + t.shortName(), hash(conv));
                try (Tensor c = Tensor.fromArray(inputs(40 * 70, 6), t).reshape(40, 70); Tensor f = FUSED.apply(a, c)) {
                    out.put("fused Jit graph " + t.shortName(), hash(f));
                }
            }
        }
        return out;
    }

    public static void main(String[] args) {
        run().forEach((name, h) -> System.out.println(name + "=" + Long.toHexString(h)));
    }

}
