package dev.jburn.kernels;

import dev.jburn.DType;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;

/**
 * Turns an {@link ElementwiseKernel} into source for a {@link Dialect}: one statement per IR
 * node, every narrow value rounded to its dtype after each node, so a fused kernel gives exactly
 * what the same ops give one by one. What a dialect or device cannot express exactly is reported
 * by {@link #unsupported}, and the engine runs that kernel elsewhere instead.
 *
 * <pre>{@code
 * ElementwiseKernel k = ElementwiseKernel.unary(UnaryOp.EXP, DType.F32, DType.F32, Shape.of(1024));
 * if (Emitter.unsupported(k, Dialect.GLSL, features).isEmpty()) {
 *     KernelSource src = Emitter.emit(k, Dialect.GLSL, features);
 * }
 * }</pre>
 */
public final class Emitter {
    private Emitter() {}

    /** The kernel's name in every generated CUDA and MSL source (GLSL's entry point is {@code main}). */
    public static final String CUDA_ENTRY = "jburn_elementwise";

    /** Elements each thread of a CUDA element-wise kernel handles per grid-stride step (size the grid by it). */
    public static final int CUDA_ELEMENTS_PER_THREAD = CudaVectorFrame.WIDTH;

    /** Why {@code k} cannot be emitted for {@code d} on a device with {@code f}, or empty when it can. */
    public static Optional<String> unsupported(ElementwiseKernel k, Dialect d, DeviceFeatures f) {
        try {
            emit(k, d, f);
            return Optional.empty();
        } catch (Unsupported u) {
            return Optional.of(u.getMessage());
        }
    }

    /**
     * The kernel's source.
     *
     * @throws IllegalArgumentException when {@link #unsupported} is not empty
     */
    public static KernelSource emit(ElementwiseKernel k, Dialect d, DeviceFeatures f) {
        List<DType> types = new ArrayList<>(k.inputTypes());
        types.add(k.outType());
        for (DType t : types) requireStorage(t, f);
        StringBuilder body = new StringBuilder();
        String stored = storedValue(k, d, statements(k, d, f, "    ", body, null));
        if (d == Dialect.CUDA) {
            StringBuilder lanes = new StringBuilder();
            BitSet wide = contiguousInputs(k);
            String laneStored = storedValue(k, d, statements(k, d, f, "      ", lanes, wide));
            String code = Prelude.of(d, f) + CudaVectorFrame.kernel(CUDA_ENTRY, k.inputTypes(), k.outType(), wide, lanes, body, laneStored, stored);
            return new KernelSource(CUDA_ENTRY, code, k.inputTypes(), k.outType());
        }
        if (d == Dialect.GLSL && GlslVectorFrame.applies(k.outType())) {
            StringBuilder lanes = new StringBuilder();
            BitSet wide = GlslVectorFrame.wideInputs(k.inputTypes(), contiguousInputs(k));
            String laneStored = storedValue(k, d, statements(k, d, f, "      ", lanes, wide));
            String code = Prelude.of(d, f) + GlslVectorFrame.kernel(k.inputTypes(), k.outType(), wide, lanes, body, laneStored, stored);
            return new KernelSource("main", code, k.inputTypes(), k.outType());
        }
        body.append("    ").append(d.write(types.size() - 1, "i", stored)).append('\n');
        String entry = d == Dialect.GLSL ? "main" : CUDA_ENTRY; // MSL: a C++ function may not be called main
        String code = Prelude.of(d, f) + d.open(entry, k.inputTypes(), k.outType()) + body + d.close();
        return new KernelSource(entry, code, k.inputTypes(), k.outType());
    }

    /**
     * The source of a kernel of several outputs ({@link ElementwiseOutputs}): GLSL only, one element per invocation.
     * Binding order: the inputs, then each output; the element count is the push constant, as for one output.
     *
     * @throws IllegalArgumentException for another dialect, or what {@link #unsupported} reports for a single output
     */
    public static KernelSource emit(ElementwiseOutputs o, Dialect d, DeviceFeatures f) {
        if (!(d instanceof GlslDialect glsl)) throw new Unsupported("kernels of several outputs are emitted for GLSL only");
        ElementwiseKernel k = o.kernel();
        List<DType> outs = o.outTypes();
        for (DType t : k.inputTypes()) requireStorage(t, f);
        for (DType t : outs) requireStorage(t, f);
        StringBuilder body = new StringBuilder();
        statements(k, d, f, "    ", body, null);
        for (int j = 0; j < outs.size(); j++) {
            String stored = d.toStorage(outs.get(j), Types.toStorageBits(outs.get(j), "v" + o.results().get(j)));
            body.append("    ").append(glsl.writeOutput(j, "i", stored)).append('\n');
        }
        return new KernelSource("main", Prelude.of(d, f) + glsl.openOutputs(k.inputTypes(), outs) + body + d.close(), k.inputTypes(), outs.getFirst());
    }

    /** {@code result} (a compute-type variable) as the output's stored type. */
    private static String storedValue(ElementwiseKernel k, Dialect d, String result) {
        return d.toStorage(k.outType(), Types.toStorageBits(k.outType(), result));
    }

    /**
     * Output elements one invocation (GLSL) or thread (CUDA) of {@code k}'s kernel computes: size the
     * grid for {@code ceil(n / this)} of them.
     */
    public static int elementsPerInvocation(ElementwiseKernel k, Dialect d) {
        if (d == Dialect.CUDA) return CudaVectorFrame.WIDTH;
        return d == Dialect.GLSL && GlslVectorFrame.applies(k.outType()) ? GlslVectorFrame.WIDTH : 1;
    }

    /** The inputs that some load reads at the output's own position (those a vector frame loads wide). */
    private static BitSet contiguousInputs(ElementwiseKernel k) {
        BitSet s = new BitSet();
        for (KernelExpr e : k.nodes()) if (e instanceof KernelExpr.Load l && l.strides() == null) s.set(l.input());
        return s;
    }

    /**
     * Appends the statements that compute {@code k}'s value at position {@code i} (an {@code idx_t}
     * in scope) and returns the variable holding it.
     */
    static String statements(ElementwiseKernel k, Dialect d, DeviceFeatures f, String indent, StringBuilder body) {
        return statements(k, d, f, indent, body, null);
    }

    /**
     * As above; contiguous loads of the inputs in {@code lanes} (null: none) read the element from the
     * vector frame's lane ({@link CudaVectorFrame#lane}, {@link GlslVectorFrame#lane}; already loaded wide)
     * instead of from memory.
     */
    static String statements(ElementwiseKernel k, Dialect d, DeviceFeatures f, String indent, StringBuilder body, BitSet lanes) {
        for (DType t : k.inputTypes()) requireStorage(t, f);
        for (KernelExpr e : k.nodes()) requireCompute(e.type(), f);
        boolean strided = k.nodes().stream().anyMatch(e -> e instanceof KernelExpr.Load l && l.strides() != null);
        if (strided) coordinates(k, indent, body);
        List<KernelExpr> nodes = k.nodes();
        for (int n = 0; n < nodes.size(); n++) {
            KernelExpr e = nodes.get(n);
            String expr = new Spelling(d, f, nodes, lanes).node(e);
            body.append(indent).append(Types.compute(e.type())).append(" v").append(n).append(" = ")
                    .append(Types.wrap(e.type(), expr)).append(";\n");
        }
        return "v" + (nodes.size() - 1);
    }

    /** Output coordinates {@code c0..c(r-1)} of element {@code i}, for loads through index maps. */
    private static void coordinates(ElementwiseKernel k, String indent, StringBuilder body) {
        int rank = k.outShape().rank();
        body.append(indent).append("idx_t r_ = i;\n");
        for (int d = rank - 1; d >= 0; d--) {
            long dim = k.outShape().dim(d);
            if (d == 0) body.append(indent).append("idx_t c0 = r_;\n");
            else body.append(indent).append("idx_t c").append(d).append(" = r_ % idx_t(").append(dim).append("); r_ = r_ / idx_t(").append(dim).append(");\n");
        }
    }

    static void requireStorage(DType t, DeviceFeatures f) {
        requireCompute(t, f);
        if (t.byteSize() == 1 && !f.storage8()) throw new Unsupported("the device has no 8-bit storage for " + t.shortName());
        if (t.byteSize() == 2 && !f.storage16()) throw new Unsupported("the device has no 16-bit storage for " + t.shortName());
    }

    static void requireCompute(DType t, DeviceFeatures f) {
        if (t == DType.F64 && !f.float64()) throw new Unsupported("the device has no 64-bit floats");
        if ((t == DType.S64 || t == DType.U64) && !f.int64()) throw new Unsupported("the device has no 64-bit integers");
    }

    /** A kernel the dialect or device cannot express exactly. */
    static final class Unsupported extends RuntimeException {
        Unsupported(String why) { super(why, null, false, false); }
    }

    /** The expression of one node in terms of earlier ones ({@code v0, v1, ...}). */
    private record Spelling(Dialect d, DeviceFeatures f, List<KernelExpr> nodes, BitSet lanes) {
        String node(KernelExpr e) {
            return switch (e) {
                case KernelExpr.Load l -> Types.fromStorage(l.type(), lanes != null && l.strides() == null && lanes.get(l.input())
                        ? (d == Dialect.CUDA ? CudaVectorFrame.lane(l.input()) : GlslVectorFrame.lane(l.input(), l.type()))
                        : d.read(l.input(), index(l.strides())));
                case KernelExpr.Literal c -> literal(c);
                case KernelExpr.Unary u -> unary(u.op(), nodes.get(u.x()).type(), "v" + u.x());
                case KernelExpr.Binary b -> binary(b.op(), nodes.get(b.a()).type(), "v" + b.a(), "v" + b.b());
                case KernelExpr.Select s -> "(v" + s.pred() + " != 0u) ? v" + s.onTrue() + " : v" + s.onFalse();
                case KernelExpr.Cast c -> Casts.spell(d, f, nodes.get(c.x()).type(), c.type(), "v" + c.x());
            };
        }

        private static String index(long[] strides) {
            if (strides == null) return "i";
            StringBuilder s = new StringBuilder();
            for (int a = 0; a < strides.length; a++) {
                if (strides[a] == 0) continue;
                if (!s.isEmpty()) s.append(" + ");
                s.append("c").append(a);
                if (strides[a] != 1) s.append(" * idx_t(").append(strides[a]).append(")");
            }
            return s.isEmpty() ? "idx_t(0)" : s.toString();
        }

        private String literal(KernelExpr.Literal c) {
            DType t = c.type();
            return switch (t) {
                case F64 -> d.f64Bits(c.bits());
                case F32, F16, BF16 -> d.f32Bits((int) c.bits());
                case U64, S64 -> d.int64Literal(c.bits(), t == DType.U64);
                case PRED, U8, U16, U32 -> String.format("u32(0x%08xu)", (int) c.bits());
                case S8, S16, S32 -> String.format("i32(0x%08xu)", (int) c.bits());
            };
        }

        private String math(String fn, DType t) { return available(d.math(fn, t == DType.F64), fn, t); }

        private String unary(UnaryOp op, DType t, String x) {
            String zero = Types.compute(t) + "(0)";
            if (t.isFloat()) {
                return switch (op) {
                    case ABS -> math("fabs", t) + "(" + x + ")";
                    case NEGATE -> "-" + x;
                    case SIGN -> "jb_sign(" + x + ")";
                    case EXP, EXPM1, LOG, LOG1P, SQRT, RSQRT, CBRT, SIN, COS, TAN, ASIN, ACOS, ATAN, SINH, COSH, TANH,
                         ASINH, ACOSH, ATANH, ERF, ERFC, FLOOR, CEIL -> math(op.name().toLowerCase(java.util.Locale.ROOT), t) + "(" + x + ")";
                    case ERF_INV -> {
                        if (t == DType.F64) yield math("erfinv", t) + "(" + x + ")";
                        if (!f.float64() || d.log64() == null) throw new Unsupported(d.name() + " has no exact erfInv on " + t.shortName());
                        yield "f32(jb_erfinv_nx(f64(" + x + ")))";
                    }
                    case SIGMOID -> {
                        math("exp", t);
                        yield "jb_sigmoid(" + x + ")";
                    }
                    case ROUND -> {
                        math("floor", t);
                        yield "jb_round(" + x + ")";
                    }
                    case IS_NAN -> "(isnan(" + x + ") ? 1u : 0u)";
                    case IS_INFINITY -> "(isinf(" + x + ") ? 1u : 0u)";
                    case LOGICAL_NOT -> "(" + x + " == " + zero + " ? 1u : 0u)";
                    case BITWISE_NOT, POPULATION_COUNT, COUNT_LEADING_ZEROS -> throw new Unsupported(op.opName() + " on " + t.shortName());
                };
            }
            String u = Types.unsignedOf(t);
            int bits = t.bits();
            return switch (op) {
                case ABS -> t.isSigned() ? "(" + x + " < " + zero + " ? " + Types.compute(t) + "(" + u + "(0) - " + u + "(" + x + ")) : " + x + ")" : x;
                case NEGATE -> Types.compute(t) + "(" + u + "(0) - " + u + "(" + x + "))";
                case SIGN -> t.isSigned()
                        ? "(" + x + " > " + zero + " ? " + Types.compute(t) + "(1) : (" + x + " < " + zero + " ? " + Types.compute(t) + "(-1) : " + zero + "))"
                        : "(" + x + " != " + zero + " ? " + Types.compute(t) + "(1) : " + zero + ")";
                case FLOOR, CEIL, ROUND -> x;
                case IS_NAN, IS_INFINITY -> "0u";
                case LOGICAL_NOT -> "(" + x + " == " + zero + " ? 1u : 0u)";
                case BITWISE_NOT -> t.isPred() ? "(" + x + " ^ 1u)" : "(~" + x + ")";
                case POPULATION_COUNT -> bits == 64
                        ? Types.compute(t) + "(POPC32(u32(" + x + ")) + POPC32(u32(" + u + "(" + x + ") >> 32)))"
                        : Types.compute(t) + "(POPC32(u32(" + x + ") & " + Types.mask32(bits) + "))";
                case COUNT_LEADING_ZEROS -> bits == 64
                        ? Types.compute(t) + "(u32(" + x + " >> 32) != 0u ? 31 - MSB32(u32(" + u + "(" + x + ") >> 32)) : 63 - MSB32(u32(" + x + ")))"
                        : Types.compute(t) + "(" + (bits - 1) + " - MSB32(u32(" + x + ") & " + Types.mask32(bits) + "))";
                case EXP, EXPM1, LOG, LOG1P, SQRT, RSQRT, CBRT, SIN, COS, TAN, ASIN, ACOS, ATAN, SINH, COSH, TANH,
                     ASINH, ACOSH, ATANH, SIGMOID, ERF, ERFC, ERF_INV -> throw new Unsupported(op.opName() + " on " + t.shortName());
            };
        }

        private String binary(BinaryOp op, DType t, String a, String b) {
            String zero = Types.compute(t) + "(0)";
            String cmp = switch (op) {
                case EQUAL -> "==";
                case NOT_EQUAL -> "!=";
                case LESS -> "<";
                case LESS_EQUAL -> "<=";
                case GREATER -> ">";
                case GREATER_EQUAL -> ">=";
                default -> null;
            };
            if (cmp != null) return "((" + a + " " + cmp + " " + b + ") ? 1u : 0u)";
            switch (op) {
                case LOGICAL_AND -> { return "((" + a + " != " + zero + " && " + b + " != " + zero + ") ? 1u : 0u)"; }
                case LOGICAL_OR -> { return "((" + a + " != " + zero + " || " + b + " != " + zero + ") ? 1u : 0u)"; }
                case LOGICAL_XOR -> { return "(((" + a + " != " + zero + ") != (" + b + " != " + zero + ")) ? 1u : 0u)"; }
                default -> { }
            }
            if (t.isFloat()) {
                return switch (op) {
                    case ADD -> "(" + a + " + " + b + ")";
                    case SUBTRACT -> "(" + a + " - " + b + ")";
                    case MULTIPLY -> "(" + a + " * " + b + ")";
                    case DIVIDE -> d.divide(t == DType.F64, f.float64(), a, b);
                    case REMAINDER -> math2("fmod", t) + "(" + a + ", " + b + ")";
                    case POW -> math2("pow", t) + "(" + a + ", " + b + ")";
                    case ATAN2 -> math2("atan2", t) + "(" + a + ", " + b + ")";
                    case MIN -> "jb_min(" + a + ", " + b + ")";
                    case MAX -> "jb_max(" + a + ", " + b + ")";
                    default -> throw new Unsupported(op.opName() + " on " + t.shortName());
                };
            }
            String ct = Types.compute(t);
            String u = Types.unsignedOf(t);
            String wide = t.bits() == 64 ? "u64" : "u32";
            String outOfRange = wide + "(" + b + ") >= " + wide + "(" + t.bits() + ")";
            return switch (op) {
                case ADD -> ct + "(" + u + "(" + a + ") + " + u + "(" + b + "))";
                case SUBTRACT -> ct + "(" + u + "(" + a + ") - " + u + "(" + b + "))";
                case MULTIPLY -> ct + "(" + u + "(" + a + ") * " + u + "(" + b + "))";
                case QUOTIENT -> "jb_quot(" + a + ", " + b + ")";
                case REMAINDER -> "jb_rem(" + a + ", " + b + ")";
                case POW -> "jb_pow(" + a + ", " + b + ")";
                case MIN -> "(" + b + " < " + a + " ? " + b + " : " + a + ")";
                case MAX -> "(" + b + " > " + a + " ? " + b + " : " + a + ")";
                case BITWISE_AND -> "(" + a + " & " + b + ")";
                case BITWISE_OR -> "(" + a + " | " + b + ")";
                case BITWISE_XOR -> "(" + a + " ^ " + b + ")";
                case LEFT_SHIFT -> "(" + outOfRange + " ? " + zero + " : " + ct + "(" + u + "(" + a + ") << " + u + "(" + b + ")))";
                case RIGHT_SHIFT -> t.isSigned()
                        ? "(" + outOfRange + " ? (" + a + " < " + zero + " ? " + ct + "(-1) : " + zero + ") : (" + a + " >> " + u + "(" + b + ")))"
                        : "(" + outOfRange + " ? " + zero + " : (" + a + " >> " + u + "(" + b + ")))";
                case DIVIDE, ATAN2 -> throw new Unsupported(op.opName() + " on " + t.shortName());
                default -> throw new IllegalStateException(op.name());
            };
        }

        private String math2(String fn, DType t) { return available(d.math2(fn, t == DType.F64), fn, t); }

        /**
         * {@code name}, the dialect's function for {@code fn} on {@code t}; refused where the dialect has none, or
         * computes an f32 (or narrower) one in double on a device without 64-bit floats.
         */
        private String available(String name, String fn, DType t) {
            if (name == null) throw new Unsupported(d.name() + " has no exact " + fn + " on " + t.shortName());
            if (t != DType.F64 && !f.float64() && d.needsFloat64(fn)) {
                throw new Unsupported(d.name() + "'s " + fn + " on " + t.shortName() + " is computed in 64-bit floats, which the device lacks");
            }
            return name;
        }
    }
}
