package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** The copy kernel's index arithmetic ({@link StridedView#source}) against the cpu engine's movement kernels. */
class StridedViewTest {
    private static final Backend CPU = Engine.select("cpu").backend();

    private static float[] viaView(float[] in, StridedView v) {
        float[] out = new float[(int) v.size()];
        for (int i = 0; i < out.length; i++) out[i] = in[(int) v.source(i)];
        return out;
    }

    private static float[] viaCpu(float[] in, Shape shape, Function<Operand, Buffer> op) {
        Buffer b = CPU.upload(MemorySegment.ofArray(in));
        Buffer r = op.apply(new Operand(b, DType.F32, shape));
        float[] out = new float[(int) (r.byteSize() / 4)];
        CPU.download(r, 0, MemorySegment.ofArray(out));
        b.release();
        r.release();
        return out;
    }

    private static float[] iota(int n) {
        float[] x = new float[n];
        for (int i = 0; i < n; i++) x[i] = i;
        return x;
    }

    @Test
    void transposeBroadcastSliceReverseMatchTheCpuEngine() {
        Shape s = Shape.of(2, 3, 4);
        float[] x = iota(24);
        int[][] perms = {{0, 1, 2}, {2, 1, 0}, {1, 0, 2}, {2, 0, 1}};
        for (int[] p : perms) {
            assertArrayEquals(viaCpu(x, s, o -> CPU.transpose(o, p)), viaView(x, StridedView.transpose(s, p)));
        }
        Shape small = Shape.of(3, 1);
        Shape out = Shape.of(2, 3, 5);
        int[] axes = {1, 2};
        assertArrayEquals(viaCpu(iota(3), small, o -> CPU.broadcast(o, out, axes)),
                viaView(iota(3), StridedView.broadcast(small, out, axes)));
        int[] starts = {1, 0, 1}, lengths = {1, 3, 3}, steps = {1, 2, 2};
        assertArrayEquals(viaCpu(x, s, o -> CPU.slice(o, starts, lengths, steps)),
                viaView(x, StridedView.slice(s, starts, lengths, steps)));
        for (int[] ax : new int[][] {{0}, {2}, {0, 1, 2}, {}}) {
            assertArrayEquals(viaCpu(x, s, o -> CPU.reverse(o, ax)), viaView(x, StridedView.reverse(s, ax)));
        }
        Shape scalar = Shape.of();
        assertArrayEquals(new float[] {7}, viaView(new float[] {7}, StridedView.transpose(scalar, new int[0])));
    }
}
