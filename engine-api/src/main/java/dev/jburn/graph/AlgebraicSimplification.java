package dev.jburn.graph;

import dev.jburn.DType;
import dev.jburn.op.BinaryOp;
import dev.jburn.spi.HostElements;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.function.Consumer;

/**
 * Identities that hold exactly, bit for bit, so that a compiled function equals its eager run:
 * {@code x*1}, {@code 1*x}, {@code x/1}, {@code x-0}, {@code x+0} (for floats only when the zero
 * is {@code -0.0}: {@code -0.0 + 0.0} is {@code +0.0}, so adding {@code +0.0} is not an identity),
 * transpose of transpose, reshape of reshape, bitcast of bitcast, and reshape, bitcast, cast,
 * broadcast or transpose that change nothing, and autodiff's marks ({@code stopGradient},
 * {@code customGradient}: the value they mark). A binary identity applies only when the result
 * has the type of the operand kept (so a broadcast or promotion is never skipped); its constant may be
 * broadcast or reshaped.
 */
final class AlgebraicSimplification implements Pass {
    @Override public String name() { return "simplify"; }

    /** Which constants a rule needs. */
    private enum Want { ONE, ADD_IDENTITY, SUB_IDENTITY }

    @Override
    public Graph run(Graph g, Consumer<String> changes) {
        return Rewriter.rewrite(g, (n, ins, b) -> {
            int firstNew = b.nextId();
            Value r = simplify(n, ins, b);
            if (r == null) return null;
            changes.accept(rule(n) + ": " + GraphText.node(n, "").lines().findFirst().orElse("")
                    + (r.id() < firstNew ? " is replaced by an existing value" : " is replaced by a new " + b.producer(r).prim().name()));
            return List.of(r);
        }, sub -> run(sub, changes));
    }

    private static String rule(Node n) {
        return switch (n.prim()) {
            case Prim.Binary x -> switch (x.op()) {
                case MULTIPLY -> "x*1";
                case DIVIDE -> "x/1";
                case ADD -> "x+0";
                default -> "x-0";
            };
            case Prim.Transpose t -> "transpose";
            case Prim.Reshape r -> "reshape";
            case Prim.Bitcast c -> "bitcast";
            case Prim.Cast c -> "cast to the same type";
            case Prim.Broadcast c -> "broadcast to the same shape";
            case Prim.GradientMark m -> "gradient mark";
            default -> n.prim().name();
        };
    }

    /** The value standing for {@code n}'s single output, or {@code null} to keep the node. */
    private static Value simplify(Node n, List<Value> ins, Graph.Builder b) {
        Value out = n.outputs().size() == 1 ? n.output() : null;
        return switch (n.prim()) {
            // A compiled graph is run, never differentiated (a compiled function called while
            // tracing is traced again from its Java code), so a mark is its last input: dropping
            // it lets its value fuse with its readers and frees the inputs it held for autodiff.
            case Prim.GradientMark m -> ins.getLast();
            case Prim.Binary x -> binary(x.op(), ins.get(0), ins.get(1), out, b);
            case Prim.Transpose t -> {
                Value x = ins.getFirst();
                Node inner = b.producer(x);
                if (inner != null && inner.prim() instanceof Prim.Transpose t1) {
                    int[] q = new int[t.perm().length];
                    for (int i = 0; i < q.length; i++) q[i] = t1.perm()[t.perm()[i]];
                    Value base = inner.inputs().getFirst();
                    yield identity(q) ? base : b.add1(new Prim.Transpose(q), base);
                }
                yield identity(t.perm()) ? x : null;
            }
            case Prim.Reshape r -> {
                Value x = ins.getFirst();
                Node inner = b.producer(x);
                if (inner != null && inner.prim() instanceof Prim.Reshape) {
                    Value base = inner.inputs().getFirst();
                    yield base.shape().equals(r.shape()) ? base : b.add1(new Prim.Reshape(r.shape()), base);
                }
                yield x.shape().equals(r.shape()) ? x : null;
            }
            case Prim.Bitcast c -> {
                Value x = ins.getFirst();
                Node inner = b.producer(x);
                if (inner != null && inner.prim() instanceof Prim.Bitcast) {
                    Value base = inner.inputs().getFirst();
                    yield base.dtype() == c.to() ? base : b.add1(new Prim.Bitcast(c.to()), base);
                }
                yield x.dtype() == c.to() ? x : null;
            }
            case Prim.Cast c -> ins.getFirst().dtype() == c.to() ? ins.getFirst() : null;
            case Prim.Broadcast c -> ins.getFirst().shape().equals(c.outShape()) ? ins.getFirst() : null;
            default -> null;
        };
    }

    private static Value binary(BinaryOp op, Value a, Value c, Value out, Graph.Builder b) {
        return switch (op) {
            case MULTIPLY -> {
                if (keeps(a, out) && all(b, c, Want.ONE)) yield a;
                yield keeps(c, out) && all(b, a, Want.ONE) ? c : null;
            }
            case DIVIDE -> keeps(a, out) && all(b, c, Want.ONE) ? a : null;
            case ADD -> {
                if (keeps(a, out) && all(b, c, Want.ADD_IDENTITY)) yield a;
                yield keeps(c, out) && all(b, a, Want.ADD_IDENTITY) ? c : null;
            }
            case SUBTRACT -> keeps(a, out) && all(b, c, Want.SUB_IDENTITY) ? a : null;
            default -> null;
        };
    }

    private static boolean keeps(Value operand, Value out) { return out != null && operand.type().equals(out.type()); }

    /**
     * Whether {@code v} is a constant whose every element is what {@code want} needs, or a broadcast or reshape (of a
     * broadcast or reshape...) of such a constant: every element of those is one of the constant's. Autodiff seeds
     * {@code grad(sum(·))} with {@code broadcast(1)}, too large to fold when the summed tensor is large, and the
     * multiply by it was a pass of its own over the cotangent (0.35-0.56 ms of the small CNN's conv cotangents).
     */
    private static boolean all(Graph.Builder b, Value v, Want want) {
        Node n = b.producer(v);
        while (n != null && (n.prim() instanceof Prim.Broadcast || n.prim() instanceof Prim.Reshape)) n = b.producer(n.inputs().getFirst());
        Prim.Constant c = n != null && n.prim() instanceof Prim.Constant k ? k : null;
        if (c == null) return false;
        MemorySegment h = MemorySegment.ofArray(c.bytes());
        DType t = c.dtype();
        for (long i = 0; i < c.shape().size(); i++) {
            boolean ok;
            if (t.isFloat()) {
                long bits = Double.doubleToRawLongBits(HostElements.getDouble(h, t, i));
                ok = switch (want) {
                    case ONE -> bits == Double.doubleToRawLongBits(1.0);
                    case ADD_IDENTITY -> bits == Double.doubleToRawLongBits(-0.0);
                    case SUB_IDENTITY -> bits == Double.doubleToRawLongBits(0.0);
                };
            } else {
                long x = HostElements.getLong(h, t, i);
                ok = want == Want.ONE ? x == 1 : x == 0;
            }
            if (!ok) return false;
        }
        return true;
    }

    private static boolean identity(int[] perm) {
        for (int i = 0; i < perm.length; i++) if (perm[i] != i) return false;
        return true;
    }
}
