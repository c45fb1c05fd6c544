package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.LinAlg;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.*;

/** Shape errors: thrown before any kernel runs, with Nx's texts, naming the op and the shapes. */
class LinAlgErrorsTest {

    private static void assertError(String op, String reason, Executable call) {
        JBurnException e = assertThrows(JBurnException.class, call);
        assertEquals(op, e.op());
        assertEquals(reason, e.reason());
    }

    @Test
    void squareMatrixOps() {
        try (Tensor wide = Tensor.zeros(Shape.of(2, 3), DType.F32); Tensor vec = Tensor.zeros(Shape.of(5), DType.F32)) {
            String nonSquare = "tensor must be a square matrix or a batch of square matrices, got shape: [2, 3]";
            String rank1 = "tensor must have at least rank 2, got rank 1 with shape [5]";
            assertError("cholesky", nonSquare, () -> LinAlg.cholesky(wide));
            assertError("lu", nonSquare, () -> LinAlg.lu(wide));
            assertError("eigh", nonSquare, () -> LinAlg.eigh(wide));
            assertError("cholesky", rank1, () -> LinAlg.cholesky(vec));
            assertError("qr", rank1, () -> LinAlg.qr(vec));
            assertError("svd", rank1, () -> LinAlg.svd(vec));
            assertError("invert", "invert/1 expects a square matrix or a batch of square matrices, got tensor with shape: [2, 3]",
                    () -> LinAlg.invert(wide));
            assertError("determinant", "determinant/1 expects a square tensor, got tensor with shape: [2, 3]", () -> LinAlg.determinant(wide));
        }
        try (Tensor batch = Tensor.zeros(Shape.of(2, 3, 2), DType.F32)) {
            assertError("cholesky", "tensor must be a square matrix or a batch of square matrices, got shape: [2, 3, 2]",
                    () -> LinAlg.cholesky(batch));
        }
    }

    @Test
    void solveShapes() {
        try (Tensor eye = Tensor.eye(2, DType.F32); Tensor b4 = Tensor.of(4f, 2f, 4f, 2f); Tensor wide = Tensor.zeros(Shape.of(3, 4), DType.F32);
             Tensor batched = Tensor.zeros(Shape.of(3, 2, 2), DType.F32); Tensor b3 = Tensor.zeros(Shape.of(4, 2), DType.F32)) {
            assertError("solve", "`b` tensor has incompatible dimensions, expected [2, 2] or [2], got: [4]", () -> LinAlg.solve(eye, b4));
            assertError("solve", "`a` tensor has incompatible dimensions, expected a square matrix or a batch of square matrices, got: [3, 4]",
                    () -> LinAlg.solve(wide, b4));
            assertError("solve", "`b` tensor has incompatible dimensions, expected [3, 2, m] or [3, 2], got: [4, 2]",
                    () -> LinAlg.solve(batched, b3));
        }
    }

    @Test
    void triangularSolveShapes() {
        try (Tensor wide = Tensor.zeros(Shape.of(2, 4), DType.F32); Tensor a = Tensor.eye(4, DType.F32);
             Tensor b1 = Tensor.of(4f); Tensor b = Tensor.of(1f, 2f, 3f, 4f); Tensor right = Tensor.zeros(Shape.of(4, 3), DType.F32)) {
            assertError("triangularSolve", "expected a square matrix or a batch of square matrices, got tensor with shape: [2, 4]",
                    () -> LinAlg.triangularSolve(wide, b));
            assertError("triangularSolve", "incompatible dimensions for a and b on triangular solve, got a [4, 4] and b [1]",
                    () -> LinAlg.triangularSolve(a, b1));
            // [4, 3] is a left-side right-hand side, not a right-side one (which needs [m, 4]).
            assertError("triangularSolve", "incompatible dimensions for a and b on triangular solve, got a [4, 4] and b [4, 3]",
                    () -> LinAlg.triangularSolve(a, right, true, false, false));
            try (Tensor x = LinAlg.triangularSolve(a, right)) {
                assertEquals(Shape.of(4, 3), x.shape());
            }
        }
    }

    @Test
    void differentEnginesAreRefused() {
        Engine other = ReductionEngines.ORACLE;
        try (Tensor a = Tensor.eye(2, DType.F32); Tensor b = Tensor.of(1f, 2f); Tensor bo = b.to(other)) {
            assertThrows(JBurnException.class, () -> LinAlg.solve(a, bo));
            assertThrows(JBurnException.class, () -> LinAlg.triangularSolve(a, bo));
        }
    }

    @Test
    void recordsCloseTheirTensors() {
        LinAlg.LU f;
        try (Tensor a = Tensor.eye(3, DType.F64)) {
            f = LinAlg.lu(a);
        }
        f.close();
        assertTrue(f.p().isClosed() && f.l().isClosed() && f.u().isClosed());
        LinAlg.SVD s = LinAlg.svd(Tensor.eye(2, DType.F32));
        s.close();
        assertTrue(s.u().isClosed() && s.s().isClosed() && s.vt().isClosed());
    }
}
