package dev.jburn.op;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The sealed op catalog. Every op a user can call is one constant of one of these enums;
 * per-op rules (result type, reference kernel, conformance property, later the backward
 * rule) are exhaustive {@code switch}es over them, so the compiler lists what a new op
 * still lacks.
 *
 * <pre>{@code
 * for (Op op : Op.catalog()) System.out.println(op.opName() + (op.composite() ? " (composite)" : ""));
 * }</pre>
 */
public sealed interface Op permits UnaryOp, BinaryOp, ElementwiseOp, ReduceOp, CumulativeOp, ShapeOp,
        IndexOp, SortOp, ContractionOp, CreationOp, RandomOp, WindowOp, ConvOp, LinalgOp {

    /** The name users see: the {@code Tensor} method name, e.g. {@code "add"}, {@code "isNan"}. */
    String opName();

    /**
     * True when the op is a decomposition into other ops in {@code engine-api} (a backend may
     * still override it for speed); false for primitives that every engine implements.
     */
    default boolean composite() { return false; }

    /** Every op in the catalog, in a stable order. */
    static List<Op> catalog() {
        List<Op> all = new ArrayList<>();
        Collections.addAll(all, UnaryOp.values());
        Collections.addAll(all, BinaryOp.values());
        Collections.addAll(all, ElementwiseOp.values());
        Collections.addAll(all, ReduceOp.values());
        Collections.addAll(all, CumulativeOp.values());
        Collections.addAll(all, ShapeOp.values());
        Collections.addAll(all, IndexOp.values());
        Collections.addAll(all, SortOp.values());
        Collections.addAll(all, ContractionOp.values());
        Collections.addAll(all, CreationOp.values());
        Collections.addAll(all, RandomOp.values());
        Collections.addAll(all, WindowOp.values());
        Collections.addAll(all, ConvOp.values());
        Collections.addAll(all, LinalgOp.values());
        return List.copyOf(all);
    }

    /** Converts {@code IS_NAN} to {@code isNan}. */
    static String camel(String constant) {
        StringBuilder sb = new StringBuilder();
        boolean up = false;
        for (char c : constant.toLowerCase(java.util.Locale.ROOT).toCharArray()) {
            if (c == '_') { up = true; continue; }
            sb.append(up ? Character.toUpperCase(c) : c);
            up = false;
        }
        return sb.toString();
    }
}
