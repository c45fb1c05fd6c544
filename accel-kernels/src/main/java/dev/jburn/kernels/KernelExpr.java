package dev.jburn.kernels;

import dev.jburn.DType;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;

import java.util.List;

/**
 * One value of an element-wise kernel, in SSA order ({@link ElementwiseKernel#nodes()}): operands
 * refer to earlier nodes by index. {@link #type()} is the JBurn dtype the value has — narrow
 * integers and F16/BF16 are rounded to that type after every node, exactly as eager ops would.
 */
public sealed interface KernelExpr {
    DType type();

    /** The indices of the nodes this one reads. */
    List<Integer> operands();

    /**
     * Element {@code index} of kernel input {@code input}, where {@code index} is the output
     * position mapped through {@code strides} (one per output axis; 0 for a broadcast axis), or the
     * output position itself when {@code strides == null} (same shape as the output).
     */
    record Load(int input, long[] strides, DType type) implements KernelExpr {
        @Override public List<Integer> operands() { return List.of(); }

        // Value semantics (the array's contents, not its identity), so equal kernels are equal
        // keys: engines cache compiled kernels by their IR.
        @Override
        public boolean equals(Object o) {
            return o instanceof Load l && l.input == input && l.type == type && java.util.Arrays.equals(l.strides, strides);
        }

        @Override
        public int hashCode() { return (input * 31 + type.hashCode()) * 31 + java.util.Arrays.hashCode(strides); }

        @Override
        public String toString() { return "Load[input=" + input + ", strides=" + java.util.Arrays.toString(strides) + ", type=" + type + "]"; }
    }

    /**
     * A constant: for float types the bits of its compute value ({@code float} bits for F16, BF16
     * and F32, {@code double} bits for F64); for integers and PRED the value sign- or zero-extended.
     */
    record Literal(long bits, DType type) implements KernelExpr {
        @Override public List<Integer> operands() { return List.of(); }
    }

    /** {@code op(x)}; {@code x} already has the op's compute type. */
    record Unary(UnaryOp op, int x, DType type) implements KernelExpr {
        @Override public List<Integer> operands() { return List.of(x); }
    }

    /** {@code op(a, b)}; both operands have the compute type. */
    record Binary(BinaryOp op, int a, int b, DType type) implements KernelExpr {
        @Override public List<Integer> operands() { return List.of(a, b); }
    }

    /** {@code pred != 0 ? onTrue : onFalse}. */
    record Select(int pred, int onTrue, int onFalse, DType type) implements KernelExpr {
        @Override public List<Integer> operands() { return List.of(pred, onTrue, onFalse); }
    }

    /** {@code x} converted to {@code type} with Nx cast semantics. */
    record Cast(int x, DType type) implements KernelExpr {
        @Override public List<Integer> operands() { return List.of(x); }
    }
}
