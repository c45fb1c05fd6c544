package dev.jburn.kernels;

import dev.jburn.Shape;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The strided-copy parameters, evaluated on the host exactly as the shader does, against known layouts. */
class CopyPlanTest {
    /** Evaluates a plan on the host: the shader's index arithmetic in Java ({@code -1} marks padding). */
    private static int[] run(CopyPlan p, int[] src, int outSize) {
        int[] out = new int[outSize];
        int[] w = p.params();
        int n = w[0], rank = w[1];
        for (int i = 0; i < n; i++) {
            int rem = i, so = w[2], dof = w[3];
            boolean pad = false;
            for (int k = rank - 1; k >= 0; k--) {
                int b = CopyPlan.HEADER + k * CopyPlan.PER_AXIS;
                int c = rem % w[b];
                rem /= w[b];
                int t = c * w[b + 1] + w[b + 2];
                if (t < 0 || t % w[b + 3] != 0) pad = true;
                else if (t / w[b + 3] >= w[b + 4]) pad = true;
                else so += (t / w[b + 3]) * w[b + 5];
                dof += c * w[b + 6];
            }
            out[dof] = pad ? -1 : src[so];
        }
        return out;
    }

    private static int[] iota(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) a[i] = i;
        return a;
    }

    @Test
    void transposeOf2x3() {
        assertArrayEquals(new int[] {0, 3, 1, 4, 2, 5}, run(CopyPlan.transpose(Shape.of(2, 3), new int[] {1, 0}), iota(6), 6));
    }

    @Test
    void broadcastRowAndColumn() {
        assertArrayEquals(new int[] {0, 1, 2, 0, 1, 2}, run(CopyPlan.broadcast(Shape.of(3), Shape.of(2, 3), new int[] {1}), iota(3), 6));
        assertArrayEquals(new int[] {0, 0, 0, 1, 1, 1}, run(CopyPlan.broadcast(Shape.of(2, 1), Shape.of(2, 3), new int[] {0, 1}), iota(2), 6));
    }

    @Test
    void stridedSliceAndReverse() {
        CopyPlan s = CopyPlan.slice(Shape.of(10), new int[] {1}, new int[] {7}, new int[] {3});
        assertEquals(3, s.count());
        assertArrayEquals(new int[] {1, 4, 7}, run(s, iota(10), 3));
        assertArrayEquals(new int[] {2, 1, 0, 5, 4, 3}, run(CopyPlan.reverse(Shape.of(2, 3), new int[] {1}), iota(6), 6));
    }

    @Test
    void padWithInteriorAndNegativeEdges() {
        // [0 1 2] with lo 1, hi -1, interior 1: [p 0 p 1 p 2] cropped at the end by one -> [p 0 p 1 p]
        CopyPlan p = CopyPlan.pad(Shape.of(3), new int[] {1}, new int[] {-1}, new int[] {1});
        assertEquals(5, p.count());
        assertArrayEquals(new int[] {-1, 0, -1, 1, -1}, run(p, iota(3), 5));
        CopyPlan crop = CopyPlan.pad(Shape.of(4), new int[] {-2}, new int[] {0}, new int[] {0});
        assertArrayEquals(new int[] {2, 3}, run(crop, iota(4), 2));
    }

    @Test
    void placeWritesAWindowOfTheOutput() {
        int[] out = run(CopyPlan.place(Shape.of(2, 1), Shape.of(2, 3), new long[] {0, 2}), new int[] {7, 8}, 6);
        assertArrayEquals(new int[] {0, 0, 7, 0, 0, 8}, out);
    }
}
