package dev.jburn.kernels;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.graph.Value;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.HostElements;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kernel IR of an element-wise computation: {@code out[i] = nodes[root](inputs at i)} for
 * every position {@code i} of {@link #outShape()}. Inputs are read through broadcast index maps,
 * so a fused chain with broadcasts needs no broadcast tensors. Built from one primitive call or
 * from a Jit fusion group ({@link #fused}); turned into source by {@link Emitter}.
 *
 * <pre>{@code
 * ElementwiseKernel k = ElementwiseKernel.binary(BinaryOp.ADD, DType.F32, Shape.of(4, 1), Shape.of(3), Shape.of(4, 3), DType.F32);
 * KernelSource cuda = Emitter.emit(k, Dialect.CUDA, DeviceFeatures.ALL);
 * }</pre>
 *
 * @param inputTypes the dtype of each input buffer, in binding order
 * @param nodes      the values in SSA order; operands refer to earlier indices
 * @param outShape   the output shape
 */
public record ElementwiseKernel(List<DType> inputTypes, List<KernelExpr> nodes, Shape outShape) {
    public ElementwiseKernel {
        inputTypes = List.copyOf(inputTypes);
        nodes = List.copyOf(nodes);
        if (nodes.isEmpty()) throw new IllegalArgumentException("a kernel needs at least one node");
    }

    /** The output's dtype: the last node's type. */
    public DType outType() { return nodes.getLast().type(); }

    /** {@code op(x)} for {@code x} of type {@code in} (the compute type) and result type {@code out}. */
    public static ElementwiseKernel unary(UnaryOp op, DType in, DType out, Shape shape) {
        return new ElementwiseKernel(List.of(in), List.of(new KernelExpr.Load(0, null, in), new KernelExpr.Unary(op, 0, out)), shape);
    }

    /** {@code op(a, b)} with NumPy broadcasting of {@code a} and {@code b} (both of type {@code compute}) to {@code outShape}. */
    public static ElementwiseKernel binary(BinaryOp op, DType compute, Shape a, Shape b, Shape outShape, DType out) {
        return new ElementwiseKernel(List.of(compute, compute), List.of(
                new KernelExpr.Load(0, broadcastStrides(a, outShape), compute),
                new KernelExpr.Load(1, broadcastStrides(b, outShape), compute),
                new KernelExpr.Binary(op, 0, 1, out)), outShape);
    }

    /** {@code pred ? onTrue : onFalse}, all broadcast to {@code outShape}; the branches have type {@code type}. */
    public static ElementwiseKernel select(Shape pred, Shape onTrue, Shape onFalse, Shape outShape, DType type) {
        return new ElementwiseKernel(List.of(DType.PRED, type, type), List.of(
                new KernelExpr.Load(0, broadcastStrides(pred, outShape), DType.PRED),
                new KernelExpr.Load(1, broadcastStrides(onTrue, outShape), type),
                new KernelExpr.Load(2, broadcastStrides(onFalse, outShape), type),
                new KernelExpr.Select(0, 1, 2, type)), outShape);
    }

    /** {@code x} converted from {@code from} to {@code to}. */
    public static ElementwiseKernel cast(DType from, DType to, Shape shape) {
        return new ElementwiseKernel(List.of(from), List.of(new KernelExpr.Load(0, null, from), new KernelExpr.Cast(0, to)), shape);
    }

    /**
     * {@code transpose(x, perm)} as one strided load: output axis {@code a} is input axis {@code perm[a]}.
     *
     * <pre>{@code
     * ElementwiseKernel t = ElementwiseKernel.transpose(DType.F32, Shape.of(2, 3), new int[] {1, 0}); // out [3, 2]
     * }</pre>
     */
    public static ElementwiseKernel transpose(DType t, Shape in, int[] perm) {
        long[] dims = new long[perm.length];
        int[] axisOf = new int[perm.length];
        for (int a = 0; a < perm.length; a++) {
            dims[a] = in.dim(perm[a]);
            axisOf[perm[a]] = a;
        }
        Shape out = Shape.of(dims);
        return new ElementwiseKernel(List.of(t), List.of(new KernelExpr.Load(0, strides(in, axisOf, out.rank()), t)), out);
    }

    /** {@code broadcast(x, out, axes)} as one strided load: input axis {@code j} is output axis {@code axes[j]}. */
    public static ElementwiseKernel broadcast(DType t, Shape in, Shape out, int[] axes) {
        return new ElementwiseKernel(List.of(t), List.of(new KernelExpr.Load(0, strides(in, axes, out.rank()), t)), out);
    }

    /**
     * The kernel of a Jit fusion group's body ({@code Prim.Fused}), or empty when the body is not
     * purely element-wise (it ends in a reduction, say). Broadcast nodes become index maps of the
     * inputs they read; rank-0 constants become literals.
     */
    public static Optional<ElementwiseKernel> fused(Graph body) {
        if (body.outputs().size() != 1) return Optional.empty();
        return fusedAt(body, body.outputs().getFirst());
    }

    /** The kernel computing {@code out}, a value of {@code body}, from {@code body}'s inputs; empty when a node on the way is not element-wise. */
    public static Optional<ElementwiseKernel> fusedAt(Graph body, Value out) {
        FusedBuilder b = FusedBuilder.of(body, out.shape());
        if (b.build(out, identity(out.shape().rank())) < 0) return Optional.empty();
        return Optional.of(new ElementwiseKernel(body.inputs().stream().map(Value::dtype).toList(), b.nodes, out.shape()));
    }

    /**
     * The one kernel of a fusion body with several outputs of one shape, every node on the way element-wise (a
     * combined chain such as Adam's {@code m'}, {@code v'} and update); empty otherwise. Nodes the outputs share are
     * computed once.
     */
    public static Optional<ElementwiseOutputs> fusedOutputs(Graph body) {
        if (body.outputs().size() < 2) return Optional.empty();
        Shape shape = body.outputs().getFirst().shape();
        for (Value v : body.outputs()) if (!v.shape().equals(shape)) return Optional.empty();
        FusedBuilder b = FusedBuilder.of(body, shape);
        List<Integer> results = new ArrayList<>();
        for (Value v : body.outputs()) {
            int r = b.build(v, identity(shape.rank()));
            if (r < 0) return Optional.empty();
            results.add(r);
        }
        ElementwiseKernel k = new ElementwiseKernel(body.inputs().stream().map(Value::dtype).toList(), b.nodes, shape);
        return Optional.of(new ElementwiseOutputs(k, results));
    }

    private static int[] identity(int rank) {
        int[] a = new int[rank];
        for (int d = 0; d < rank; d++) a[d] = d;
        return a;
    }

    /** Per output axis, the stride into {@code in}'s row-major layout ({@code 0} where broadcast); null when {@code in == out}. */
    public static long[] broadcastStrides(Shape in, Shape out) {
        if (in.equals(out)) return null;
        int[] axisOf = new int[in.rank()];
        for (int j = 0; j < axisOf.length; j++) axisOf[j] = j + out.rank() - in.rank();
        return strides(in, axisOf, out.rank());
    }

    /** Strides over {@code outRank} output axes for a value of shape {@code s} whose axis {@code j} is output axis {@code axisOf[j]}. */
    static long[] strides(Shape s, int[] axisOf, int outRank) {
        long[] st = new long[outRank];
        long stride = 1;
        for (int j = s.rank() - 1; j >= 0; j--) {
            if (s.dim(j) != 1) st[axisOf[j]] += stride;
            stride *= s.dim(j);
        }
        return st;
    }

    /** Walks a fusion body from its output, pushing broadcasts down to the loads. */
    private static final class FusedBuilder {
        final Map<Integer, Node> producers;
        final Map<Integer, Integer> inputIndex;
        final Shape outShape;
        final List<KernelExpr> nodes = new ArrayList<>();
        final Map<String, Integer> built = new HashMap<>();

        FusedBuilder(Map<Integer, Node> producers, Map<Integer, Integer> inputIndex, Shape outShape) {
            this.producers = producers;
            this.inputIndex = inputIndex;
            this.outShape = outShape;
        }

        /** A builder over {@code body}'s nodes and inputs for values of shape {@code out}. */
        static FusedBuilder of(Graph body, Shape out) {
            Map<Integer, Node> producers = new HashMap<>();
            for (Node n : body.nodes()) {
                for (Value v : n.outputs()) producers.put(v.id(), n);
            }
            Map<Integer, Integer> inputIndex = new HashMap<>();
            for (int i = 0; i < body.inputs().size(); i++) inputIndex.put(body.inputs().get(i).id(), i);
            return new FusedBuilder(producers, inputIndex, out);
        }

        /** The node index of {@code v} read with axis map {@code axisOf}, or -1 when something is not element-wise. */
        int build(Value v, int[] axisOf) {
            String key = v.id() + Arrays.toString(axisOf);
            Integer done = built.get(key);
            if (done != null) return done;
            int r = make(v, axisOf);
            if (r >= 0) built.put(key, r);
            return r;
        }

        private int add(KernelExpr e) {
            nodes.add(e);
            return nodes.size() - 1;
        }

        private int make(Value v, int[] axisOf) {
            Integer input = inputIndex.get(v.id());
            if (input != null) {
                boolean identity = v.shape().equals(outShape);
                for (int j = 0; identity && j < axisOf.length; j++) identity = axisOf[j] == j;
                return add(new KernelExpr.Load(input, identity ? null : strides(v.shape(), axisOf, outShape.rank()), v.dtype()));
            }
            Node n = producers.get(v.id());
            if (n == null) return -1;
            return switch (n.prim()) {
                case Prim.Unary u -> {
                    int x = build(n.inputs().get(0), axisOf);
                    yield x < 0 ? -1 : add(new KernelExpr.Unary(u.op(), x, u.out()));
                }
                case Prim.Binary bin -> {
                    int a = build(n.inputs().get(0), rightAligned(n.inputs().get(0), v, axisOf));
                    int c = build(n.inputs().get(1), rightAligned(n.inputs().get(1), v, axisOf));
                    yield a < 0 || c < 0 ? -1 : add(new KernelExpr.Binary(bin.op(), a, c, bin.out()));
                }
                case Prim.Select s -> {
                    int p = build(n.inputs().get(0), rightAligned(n.inputs().get(0), v, axisOf));
                    int t = build(n.inputs().get(1), rightAligned(n.inputs().get(1), v, axisOf));
                    int f = build(n.inputs().get(2), rightAligned(n.inputs().get(2), v, axisOf));
                    yield p < 0 || t < 0 || f < 0 ? -1 : add(new KernelExpr.Select(p, t, f, v.dtype()));
                }
                case Prim.Cast c -> {
                    int x = build(n.inputs().get(0), axisOf);
                    yield x < 0 ? -1 : add(new KernelExpr.Cast(x, c.to()));
                }
                case Prim.Broadcast br -> {
                    int[] inner = new int[br.axes().length];
                    for (int i = 0; i < inner.length; i++) inner[i] = axisOf[br.axes()[i]];
                    yield build(n.inputs().get(0), inner);
                }
                case Prim.Constant k when k.shape().rank() == 0 -> add(literal(k));
                default -> -1;
            };
        }

        /** The axis map of operand {@code in} of a broadcasting node producing {@code node}. */
        private static int[] rightAligned(Value in, Value node, int[] nodeAxisOf) {
            int shift = node.shape().rank() - in.shape().rank();
            int[] a = new int[in.shape().rank()];
            for (int j = 0; j < a.length; j++) a[j] = nodeAxisOf[j + shift];
            return a;
        }
    }

    /** A rank-0 constant as a literal of its compute type. */
    static KernelExpr.Literal literal(Prim.Constant k) {
        MemorySegment s = MemorySegment.ofArray(k.bytes());
        DType t = k.dtype();
        long bits = switch (t) {
            case F64 -> Double.doubleToRawLongBits(HostElements.getDouble(s, t, 0));
            case F32, F16, BF16 -> Float.floatToRawIntBits((float) HostElements.getDouble(s, t, 0)) & 0xFFFF_FFFFL;
            default -> HostElements.getLong(s, t, 0);
        };
        return new KernelExpr.Literal(bits, t);
    }
}
