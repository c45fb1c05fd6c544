package dev.jburn.graph;

import dev.jburn.DType;
import dev.jburn.spi.ConvSpec;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.WindowSpec;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** The readable SSA text of graphs and nodes: {@code %3 = add(%1, %2) : f32[2,3]}. */
final class GraphText {
    private GraphText() {}

    private static final int MAX_PRINTED_ELEMENTS = 8;

    static String graph(Graph g, String indent) {
        StringBuilder sb = new StringBuilder();
        sb.append("graph(").append(g.inputs().stream().map(v -> v + ": " + v.type()).collect(Collectors.joining(", "))).append(") {\n");
        for (Node n : g.nodes()) sb.append(node(n, indent + "  ")).append('\n');
        sb.append(indent).append("  return ").append(ids(g.outputs())).append('\n');
        return sb.append(indent).append('}').toString();
    }

    static String node(Node n, String indent) {
        StringBuilder sb = new StringBuilder(indent);
        sb.append(ids(n.outputs())).append(" = ").append(n.prim().name());
        if (!n.inputs().isEmpty()) sb.append('(').append(ids(n.inputs())).append(')');
        String attrs = attributes(n.prim());
        if (!attrs.isEmpty()) sb.append(" {").append(attrs).append('}');
        sb.append(" : ").append(n.outputs().stream().map(v -> v.type().toString()).collect(Collectors.joining(", ")));
        switch (n.prim()) {
            case Prim.Cond c -> {
                sb.append('\n').append(indent).append("  true: ").append(graph(c.onTrue(), indent + "  "));
                sb.append('\n').append(indent).append("  false: ").append(graph(c.onFalse(), indent + "  "));
            }
            case Prim.WhileLoop w -> {
                sb.append('\n').append(indent).append("  cond: ").append(graph(w.cond(), indent + "  "));
                sb.append('\n').append(indent).append("  body: ").append(graph(w.body(), indent + "  "));
            }
            case Prim.Fused f -> sb.append('\n').append(indent).append("  body: ").append(graph(f.body(), indent + "  "));
            default -> { }
        }
        return sb.toString();
    }

    static String ids(List<Value> vs) {
        return vs.stream().map(Value::toString).collect(Collectors.joining(", "));
    }

    /**
     * Every attribute that the output types do not already say, e.g. {@code axes=[1]}; empty when
     * none. Together with the name, inputs and output types this identifies a node (CSE uses it).
     */
    static String attributes(Prim p) {
        return switch (p) {
            case Prim.Constant c -> constant(c);
            case Prim.Iota i -> i.axis() < 0 ? "" : "axis=" + i.axis();
            case Prim.Unary u -> "";
            case Prim.Binary b -> "";
            case Prim.Select s -> "";
            case Prim.Cast c -> "";
            case Prim.Reduce r -> "axes=" + str(r.axes());
            case Prim.ArgReduce a -> "axis=" + a.axis() + (a.tieBreakHigh() ? ", tieBreakHigh" : "");
            case Prim.Cumulative c -> "axis=" + c.axis() + (c.reverse() ? ", reverse" : "");
            case Prim.Transpose t -> "perm=" + str(t.perm());
            case Prim.Broadcast b -> "axes=" + str(b.axes());
            case Prim.Slice s -> "starts=" + str(s.starts()) + ", lengths=" + str(s.lengths()) + ", strides=" + str(s.strides());
            case Prim.PutSlice s -> "starts=" + str(s.starts());
            case Prim.Pad pd -> "lo=" + str(pd.lo()) + ", hi=" + str(pd.hi()) + ", interior=" + str(pd.interior());
            case Prim.Reverse r -> "axes=" + str(r.axes());
            case Prim.Concatenate c -> "axis=" + c.axis();
            case Prim.Gather g -> "axes=" + str(g.axes());
            case Prim.IndexedUpdate u -> "axes=" + str(u.axes());
            case Prim.Sort s -> "axis=" + s.axis() + (s.descending() ? ", descending" : "");
            case Prim.Argsort s -> "axis=" + s.axis() + (s.descending() ? ", descending" : "");
            case Prim.Dot d -> "contract=" + str(d.contractA()) + "x" + str(d.contractB()) + ", batch=" + str(d.batchA()) + "x" + str(d.batchB());
            case Prim.Conv c -> conv(c.spec());
            case Prim.WindowReduce w -> window(w.spec());
            case Prim.WindowScatter w -> window(w.spec());
            case Prim.Cholesky c -> "";
            case Prim.TriangularSolve t -> "lower=" + t.lower() + ", leftSide=" + t.leftSide() + ", transposeA=" + t.transposeA();
            case Prim.Lu l -> "";
            case Prim.Qr q -> q.complete() ? "complete" : "";
            case Prim.Eigh e -> "";
            case Prim.Svd s -> s.fullMatrices() ? "fullMatrices" : "";
            case Prim.Reshape r -> "";
            case Prim.Bitcast b -> "";
            case Prim.GradientMark m -> "";
            case Prim.Cond c -> "";
            case Prim.Fused f -> "";
            case Prim.WhileLoop w -> "";
        };
    }

    static String str(int[] a) { return Arrays.toString(a).replace(" ", ""); }

    private static String conv(ConvSpec s) {
        return "strides=" + str(s.strides()) + ", padLow=" + str(s.padLow()) + ", padHigh=" + str(s.padHigh())
                + ", inputDilation=" + str(s.inputDilation()) + ", kernelDilation=" + str(s.kernelDilation())
                + ", featureGroups=" + s.featureGroups() + ", batchGroups=" + s.batchGroups();
    }

    private static String window(WindowSpec s) {
        return "dims=" + str(s.dims()) + ", strides=" + str(s.strides()) + ", padLow=" + str(s.padLow())
                + ", padHigh=" + str(s.padHigh()) + ", dilations=" + str(s.dilations());
    }

    private static String constant(Prim.Constant c) {
        long n = c.shape().size();
        if (n > MAX_PRINTED_ELEMENTS || c.bytes().length != c.dtype().byteSize(n)) return "bytes=" + c.bytes().length;
        MemorySegment h = MemorySegment.ofArray(c.bytes());
        StringBuilder sb = new StringBuilder(n == 1 && c.shape().rank() == 0 ? "" : "[");
        for (long i = 0; i < n; i++) sb.append(i == 0 ? "" : ", ").append(element(h, c.dtype(), i));
        if (!(n == 1 && c.shape().rank() == 0)) sb.append(']');
        return "value=" + sb;
    }

    private static String element(MemorySegment h, DType t, long i) {
        if (t.isPred()) return HostElements.getLong(h, t, i) != 0 ? "true" : "false";
        if (t == DType.F64) return Double.toString(HostElements.getDouble(h, t, i));
        if (t.isFloat()) return Float.toString((float) HostElements.getDouble(h, t, i));
        long v = HostElements.getLong(h, t, i);
        return t == DType.U64 ? Long.toUnsignedString(v) : Long.toString(v);
    }
}
