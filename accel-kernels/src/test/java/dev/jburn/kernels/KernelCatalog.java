package dev.jburn.kernels;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.UnaryOp;

import java.util.ArrayList;
import java.util.List;

/** One element-wise kernel per op × valid dtype and per cast pair, as the front end would request them. */
final class KernelCatalog {
    private KernelCatalog() {}

    static final Shape SHAPE = Shape.of(2, 3);

    static List<ElementwiseKernel> all() {
        List<ElementwiseKernel> out = new ArrayList<>();
        for (UnaryOp op : UnaryOp.values()) {
            for (DType t : DType.values()) {
                DType result;
                try {
                    result = op.resultType(t);
                } catch (JBurnException e) {
                    continue;
                }
                DType in = op.floatMath() ? t.toFloating() : t;
                out.add(ElementwiseKernel.unary(op, in, result, SHAPE));
            }
        }
        for (BinaryOp op : BinaryOp.values()) {
            for (DType t : DType.values()) {
                DType compute;
                try {
                    compute = op.computeType(t);
                } catch (JBurnException e) {
                    continue;
                }
                out.add(ElementwiseKernel.binary(op, compute, Shape.of(2, 1), Shape.of(3), SHAPE, op.resultType(compute)));
            }
        }
        for (DType from : DType.values()) {
            for (DType to : DType.values()) out.add(ElementwiseKernel.cast(from, to, SHAPE));
        }
        return out;
    }
}
