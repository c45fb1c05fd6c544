package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Jit;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.kernels.DeviceFeatures;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.ElementwiseKernel;
import dev.jburn.kernels.Emitter;
import dev.jburn.kernels.ReductionEmitter;
import dev.jburn.kernels.ReductionKernel;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Every MSL kernel the emitter writes, for one representative shape per family: element-wise
 * (every unary, binary, select and cast over every dtype), movement as strided loads (transpose,
 * broadcast), reductions (every primitive reduction, contiguous and strided axes, and the
 * shape-independent row reduction), and Jit fusion groups (element-wise chains with broadcasts and
 * literals, and chains ending in a reduction). What the dialect cannot express is counted by reason.
 */
final class MslKernels {
    /** An Apple GPU without a native bfloat type (MSL before 3.1). */
    static final DeviceFeatures APPLE = new DeviceFeatures(false, true, true, true, false);
    /** An Apple GPU whose BF16 buffers are declared {@code bfloat}. */
    static final DeviceFeatures APPLE_BFLOAT = new DeviceFeatures(false, true, true, true, true);

    /** Elements per element-wise input; the kernels are given one fewer, so the grid's last thread is out of range. */
    static final int N = 64;

    private final List<MslCase> cases = new ArrayList<>();
    /** Op × dtype combinations the dialect reports unsupported (they run on the cpu engine), by reason. */
    private final Map<String, Integer> unsupported = new TreeMap<>();

    List<MslCase> cases() { return cases; }

    Map<String, Integer> unsupported() { return unsupported; }

    private MslKernels() {}

    /** The whole catalogue for devices with {@code features}. */
    static MslKernels all(DeviceFeatures features) {
        MslKernels k = new MslKernels();
        k.elementwise(features);
        k.movement(features);
        k.reductions(features);
        k.fused(features);
        return k;
    }

    private void add(String label, ElementwiseKernel k, DeviceFeatures f, List<Shape> shapes, long count, boolean approx,
                     java.util.function.BiFunction<dev.jburn.spi.Backend, List<Operand>, Buffer> oracle) {
        var why = Emitter.unsupported(k, Dialect.METAL, f);
        if (why.isPresent()) {
            unsupported.merge(reason(why.get()), 1, Integer::sum);
            return;
        }
        cases.add(new MslCase(label, Emitter.emit(k, Dialect.METAL, f), shapes, count, count, 0, false, approx, oracle));
    }

    private void addReduction(String label, ReductionKernel k, DeviceFeatures f, List<Shape> shapes, boolean approx,
                              java.util.function.BiFunction<dev.jburn.spi.Backend, List<Operand>, Buffer> oracle) {
        var why = ReductionEmitter.unsupported(k, Dialect.METAL, f);
        if (why.isPresent()) {
            unsupported.merge(reason(why.get()), 1, Integer::sum);
            return;
        }
        long outputs = k.outShape().size();
        cases.add(new MslCase(label, ReductionEmitter.emit(k, Dialect.METAL, f), shapes, outputs, outputs, outputs, true, approx, oracle));
    }

    /** The emitter's reason without the dtype, so the summary has one line per reason. */
    private static String reason(String why) {
        return why.replaceAll(" on (pred|u8|u16|u32|u64|s8|s16|s32|s64|f16|bf16|f32|f64)\\b", " on <dtype>");
    }

    private static boolean transcendental(UnaryOp u) {
        return switch (u) {
            case EXP, EXPM1, LOG, LOG1P, SQRT, RSQRT, CBRT, SIN, COS, TAN, ASIN, ACOS, ATAN, SINH, COSH, TANH,
                 ASINH, ACOSH, ATANH, SIGMOID, ERF, ERFC, ERF_INV -> true;
            default -> false;
        };
    }

    private void elementwise(DeviceFeatures f) {
        Shape flat = Shape.of(N), scalar = Shape.of();
        for (DType t : DType.values()) {
            for (UnaryOp u : UnaryOp.values()) {
                DType out;
                try { out = u.resultType(t); } catch (RuntimeException e) { continue; }
                add("unary " + u.opName() + ":" + t.shortName(), ElementwiseKernel.unary(u, t, out, flat), f, List.of(flat), N - 1,
                        transcendental(u), (b, in) -> b.unary(u, in.get(0), out));
            }
            for (BinaryOp o : BinaryOp.values()) {
                DType out = o.resultType(t);
                // Arithmetic on PRED is never sent by the front end (it computes in U8); engines leave it to the cpu engine.
                if (t == DType.PRED && !(o.isComparison() || o.isLogical() || o == BinaryOp.MIN || o == BinaryOp.MAX
                        || o == BinaryOp.BITWISE_AND || o == BinaryOp.BITWISE_OR || o == BinaryOp.BITWISE_XOR)) continue;
                add("binary " + o.opName() + ":" + t.shortName(), ElementwiseKernel.binary(o, t, flat, flat, flat, out), f,
                        List.of(flat, flat), N - 1, false, (b, in) -> b.binary(o, in.get(0), in.get(1), flat, out));
                add("binary " + o.opName() + ":" + t.shortName() + " (b scalar)", ElementwiseKernel.binary(o, t, flat, scalar, flat, out), f,
                        List.of(flat, scalar), N - 1, false, (b, in) -> b.binary(o, in.get(0), in.get(1), flat, out));
            }
            add("select:" + t.shortName(), ElementwiseKernel.select(flat, flat, flat, flat, t), f, List.of(flat, flat, flat), N - 1, false,
                    (b, in) -> b.select(in.get(0), in.get(1), in.get(2), flat));
            for (DType to : DType.values()) {
                add("cast " + t.shortName() + "->" + to.shortName(), ElementwiseKernel.cast(t, to, flat), f, List.of(flat), N - 1, false,
                        (b, in) -> b.cast(in.get(0), to));
            }
        }
    }

    /** Transpose and broadcast: one strided load each, the shape the Jit fusion pass gives them inside a group. */
    private void movement(DeviceFeatures f) {
        Shape in = Shape.of(2, 3, 4), row = Shape.of(3), wide = Shape.of(4, 3, 5);
        int[] perm = {2, 0, 1}, broadcastAxes = {1};
        for (DType t : DType.values()) {
            ElementwiseKernel tr = ElementwiseKernel.transpose(t, in, perm);
            add("transpose:" + t.shortName(), tr, f, List.of(in), tr.outShape().size() - 1, false, (b, x) -> b.transpose(x.get(0), perm));
            add("broadcast:" + t.shortName(), ElementwiseKernel.broadcast(t, row, wide, broadcastAxes), f, List.of(row), wide.size() - 1, false,
                    (b, x) -> b.broadcast(x.get(0), wide, broadcastAxes));
        }
    }

    private static final List<ReduceOp> REDUCTIONS = List.of(ReduceOp.SUM, ReduceOp.PRODUCT, ReduceOp.REDUCE_MAX, ReduceOp.REDUCE_MIN,
            ReduceOp.ALL, ReduceOp.ANY);

    private void reductions(DeviceFeatures f) {
        // Contiguous rows, a strided middle axis kept (two axes reduced around it), and one long row of more than 256.
        Shape[] shapes = {Shape.of(4, 6), Shape.of(3, 4, 5), Shape.of(300)};
        int[][][] axesFor = {{{1}}, {{0, 2}}, {{0}}};
        for (DType t : DType.values()) {
            for (ReduceOp op : REDUCTIONS) {
                DType out = op == ReduceOp.ALL || op == ReduceOp.ANY ? DType.PRED : t;
                // Sums and products of PRED are never sent by the front end; engines keep the cpu engine's 0/1 results.
                if (t == DType.PRED && (op == ReduceOp.SUM || op == ReduceOp.PRODUCT)) continue;
                boolean approx = t.isFloat() && (op == ReduceOp.SUM || op == ReduceOp.PRODUCT);
                for (int si = 0; si < shapes.length; si++) {
                    for (int[] axes : axesFor[si]) {
                        Shape s = shapes[si];
                        addReduction(op.opName() + ":" + t.shortName() + " " + s + " axes " + java.util.Arrays.toString(axes),
                                ReductionKernel.of(op, t, s, axes, out), f, List.of(s), approx, (b, in) -> b.reduce(op, in.get(0), axes, out));
                    }
                }
                rows(op, t, out, f, approx);
            }
        }
    }

    /** {@link ReductionEmitter#emitRows}: the shape-independent kernel, its column count read from a buffer. */
    private void rows(ReduceOp op, DType t, DType out, DeviceFeatures f, boolean approx) {
        int rows = 3, cols = 70;
        Shape m = Shape.of(rows, cols);
        try {
            var src = ReductionEmitter.emitRows(op, t, out, Dialect.METAL, f);
            cases.add(new MslCase(op.opName() + " rows:" + t.shortName(), src, List.of(m, Shape.of(1)), rows, rows, rows, true, approx,
                    (b, in) -> b.reduce(op, in.get(0), new int[] {1}, out), 1, cols));
        } catch (RuntimeException e) {
            unsupported.merge(String.valueOf(e.getMessage()), 1, Integer::sum);
        }
    }

    private record Fn(String label, Function<List<Tensor>, List<Tensor>> fn, List<Shape> shapes, boolean approx) {}

    /** Jit fusion groups: each function compiles to one group, whose body becomes one kernel. */
    private void fused(DeviceFeatures f) {
        List<Fn> fns = List.of(
                new Fn("a*b+c", xs -> List.of(xs.get(0).multiply(xs.get(1)).add(xs.get(2))), List.of(Shape.of(2, 3), Shape.of(2, 3), Shape.of(2, 3)), false),
                new Fn("a[2,3]*b[3]+1", xs -> List.of(xs.get(0).multiply(xs.get(1)).add(1.0)), List.of(Shape.of(2, 3), Shape.of(3)), false),
                new Fn("exp(x*0.5+1)*x", xs -> List.of(xs.get(0).multiply(0.5).add(1.0).exp().multiply(xs.get(0))), List.of(Shape.of(4, 5)), true),
                new Fn("a[4,1]-b[5] |> max 0", xs -> List.of(xs.get(0).subtract(xs.get(1)).maximum(0.0)), List.of(Shape.of(4, 1), Shape.of(5)), false),
                new Fn("sum(a*b, 1)", xs -> List.of(xs.get(0).multiply(xs.get(1)).sum(new int[] {1})), List.of(Shape.of(3, 7), Shape.of(3, 7)), true),
                new Fn("sum(max(a-b, 0), 0)", xs -> List.of(xs.get(0).subtract(xs.get(1)).maximum(0.0).sum(new int[] {0})),
                        List.of(Shape.of(4, 5), Shape.of(4, 5)), true),
                // a rank-0 chain the fusion pass copies into the group, computed per element (MSL has no exact pow, so
                // Adam's 1 - β^t is not among these: an engine lacking an op gets no copies of it)
                new Fn("x / -(t*0.5+2) + x", xs -> List.of(xs.get(0).divide(xs.get(1).multiply(0.5).add(2.0).negate()).add(xs.get(0))),
                        List.of(Shape.of(4, 5), Shape.scalar()), false));
        for (Fn fn : fns) {
            CompiledFunction cf = Jit.compileList(fn.fn());
            // Tracing needs inputs: zeros of the right shapes on the cpu engine.
            List<Tensor> probe = new ArrayList<>();
            for (Shape s : fn.shapes()) probe.add(Tensor.of(new float[(int) s.size()]).reshape(s).to(Engine.select("cpu")));
            cf.apply(probe);
            Graph g = cf.graph();
            List<Node> groups = g.nodes().stream().filter(n -> n.prim() instanceof Prim.Fused).toList();
            if (groups.size() != 1 || g.nodes().size() != 1) {
                // The fusion pass's choice (a reduction it keeps out of the group, say); the oracle is the whole function.
                unsupported.merge("(fusion pass: not one group) " + fn.label(), 1, Integer::sum);
                continue;
            }
            Node node = groups.getFirst();
            Graph body = ((Prim.Fused) node.prim()).body();
            int[] graphInput = node.inputs().stream().mapToInt(v -> g.inputs().indexOf(v)).toArray();
            List<Shape> shapes = node.inputs().stream().map(v -> v.shape()).toList();
            java.util.function.BiFunction<dev.jburn.spi.Backend, List<Operand>, Buffer> oracle = (b, in) -> {
                List<Tensor> args = new ArrayList<>(java.util.Collections.nCopies(g.inputs().size(), (Tensor) null));
                for (int i = 0; i < in.size(); i++) args.set(graphInput[i], tensor(b, in.get(i)));
                float[] r = cf.apply(args).getFirst().toFloatArray();
                return b.upload(Arena.ofAuto().allocateFrom(ValueLayout.JAVA_FLOAT, r));
            };
            var ek = ElementwiseKernel.fused(body);
            if (ek.isPresent()) {
                add("fused " + fn.label(), ek.get(), f, shapes, ek.get().outShape().size() - 1, fn.approx(), oracle);
                continue;
            }
            var rk = ReductionKernel.fused(body).orElseThrow(() -> new IllegalStateException("fused " + fn.label() + ": no kernel"));
            addReduction("fused " + fn.label(), rk, f, shapes, fn.approx(), oracle);
        }
    }

    /** An f32 operand as a cpu tensor. */
    private static Tensor tensor(dev.jburn.spi.Backend b, Operand x) {
        MemorySegment m = Arena.ofAuto().allocate(x.size() * 4, 8);
        b.download(x.buffer(), 0, m);
        return Tensor.of(m.toArray(ValueLayout.JAVA_FLOAT)).reshape(x.shape()).to(Engine.select("cpu"));
    }
}
