package dev.jburn.kernels;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Prim;
import dev.jburn.graph.Value;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FusedKernelTest {
    @Test
    void broadcastsBecomeIndexMapsOfTheInputsAndScalarConstantsBecomeLiterals() {
        Graph.Builder g = Graph.builder();
        Value a = g.input(DType.F32, Shape.of(4, 3));
        Value row = g.input(DType.F32, Shape.of(3));
        Value col = g.input(DType.F32, Shape.of(4));
        Value two = g.constant(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(2f).array(), DType.F32, Shape.of());
        Value colB = g.add1(new Prim.Broadcast(Shape.of(4, 3), new int[] {0}), col);
        Value sum = g.add1(new Prim.Binary(BinaryOp.ADD, Shape.of(4, 3), DType.F32), a, row);
        Value scaled = g.add1(new Prim.Binary(BinaryOp.MULTIPLY, Shape.of(4, 3), DType.F32), sum, two);
        Value out = g.add1(new Prim.Binary(BinaryOp.SUBTRACT, Shape.of(4, 3), DType.F32), scaled, colB);
        Value e = g.add1(new Prim.Unary(UnaryOp.EXP, DType.F32), out);

        ElementwiseKernel k = ElementwiseKernel.fused(g.build(java.util.List.of(e))).orElseThrow();
        assertEquals(java.util.List.of(DType.F32, DType.F32, DType.F32), k.inputTypes());
        KernelExpr.Load loadA = (KernelExpr.Load) k.nodes().stream().filter(n -> n instanceof KernelExpr.Load l && l.input() == 0).findFirst().orElseThrow();
        KernelExpr.Load loadRow = (KernelExpr.Load) k.nodes().stream().filter(n -> n instanceof KernelExpr.Load l && l.input() == 1).findFirst().orElseThrow();
        KernelExpr.Load loadCol = (KernelExpr.Load) k.nodes().stream().filter(n -> n instanceof KernelExpr.Load l && l.input() == 2).findFirst().orElseThrow();
        assertNull(loadA.strides());
        assertArrayEquals(new long[] {0, 1}, loadRow.strides());
        assertArrayEquals(new long[] {1, 0}, loadCol.strides());
        assertTrue(k.nodes().stream().anyMatch(n -> n instanceof KernelExpr.Literal l && l.bits() == Float.floatToRawIntBits(2f)));
        assertInstanceOf(KernelExpr.Unary.class, k.nodes().getLast());
        String cuda = Emitter.emit(k, Dialect.CUDA, DeviceFeatures.ALL).code();
        assertTrue(cuda.contains("expf("), cuda);
    }

    @Test
    void aBodyEndingInAReductionIsNotElementwise() {
        Graph.Builder g = Graph.builder();
        Value a = g.input(DType.F32, Shape.of(4, 3));
        Value sq = g.add1(new Prim.Binary(BinaryOp.MULTIPLY, Shape.of(4, 3), DType.F32), a, a);
        Value s = g.add1(new Prim.Reduce(ReduceOp.SUM, new int[] {1}, DType.F32), sq);
        assertTrue(ElementwiseKernel.fused(g.build(java.util.List.of(s))).isEmpty());
    }
}
