package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static dev.jburn.reference.ShapeTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Movement kernels: the fast paths (merged runs, 2-D tiles, parallel chunks) against the
 * element-by-element oracle, for every element width and shapes large enough to take the
 * tiled transpose.
 */
class ShapeOpsPathsTest {
    private static final List<Engine> FAST = List.of(Engine.defaultEngine(), PARALLEL);

    private static void assertPathsAgree(Tensor x, Function<Tensor, Tensor> op) {
        Tensor expected = op.apply(x.to(ORACLE));
        for (Engine e : FAST) assertSameBits(expected, op.apply(x.to(e)));
    }

    @Test
    void transposeEveryWidthAndLayout() {
        Random rnd = new Random(21);
        for (DType t : List.of(DType.U8, DType.S16, DType.F32, DType.F64, DType.BF16, DType.PRED)) {
            Tensor big = random(rnd, t, 67, 45);
            assertPathsAgree(big, Tensor::transpose);
            Tensor x = random(rnd, t, 3, 40, 9, 33);
            assertPathsAgree(x, v -> v.transpose(0, 3, 2, 1));
            assertPathsAgree(x, v -> v.transpose(1, 0, 2, 3));
            assertPathsAgree(x, v -> v.transpose(3, 1, 0, 2));
            assertPathsAgree(x, v -> v.transpose(2, 3, 0, 1));
        }
        // tiled result equals the definition
        Tensor m = iota(67, 45);
        long[] v = m.transpose().toLongArray();
        for (int i = 0; i < 45; i++) for (int j = 0; j < 67; j++) assertEquals(j * 45 + i, v[i * 67 + j]);
    }

    @Test
    void sliceReversePadConcatPutSlice() {
        Random rnd = new Random(22);
        for (DType t : List.of(DType.S8, DType.F16, DType.S32, DType.U64)) {
            Tensor x = random(rnd, t, 6, 17, 11);
            assertPathsAgree(x, v -> v.slice(new int[] {1, 2, 3}, new int[] {4, 15, 8}));
            assertPathsAgree(x, v -> v.slice(new int[] {0, 1, 0}, new int[] {6, 16, 11}, new int[] {2, 3, 1}));
            assertPathsAgree(x, v -> v.reverse());
            assertPathsAgree(x, v -> v.reverse(1));
            assertPathsAgree(x, v -> v.reverse(2, 0));
            assertPathsAgree(x, v -> v.pad(3, new int[][] {{1, -2, 1}, {-3, 4, 0}, {0, 0, 2}}));
            assertPathsAgree(x, v -> v.pad(-1, new int[][] {{2, 2, 0}, {0, 0, 0}, {1, 1, 0}}));
            assertPathsAgree(x, v -> Tensor.concatenate(1, v, v.slice(new int[] {0, 0, 0}, new int[] {6, 3, 11}), v));
            assertPathsAgree(x, v -> Tensor.concatenate(2, v, v));
            assertPathsAgree(x, v -> v.putSlice(new int[] {2, 5, 4}, v.slice(new int[] {0, 0, 0}, new int[] {3, 9, 7}).reverse()));
            assertPathsAgree(x, v -> v.tile(2, 1, 3));
            assertPathsAgree(x, v -> v.slice(new int[] {0, 0, 5}, new int[] {6, 17, 1}).broadcast(v.shape()));
        }
    }
}
