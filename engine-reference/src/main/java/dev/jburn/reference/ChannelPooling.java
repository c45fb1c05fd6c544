package dev.jburn.reference;

import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.op.ReduceOp;
import dev.jburn.spi.WindowSpec;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Pooling whose trailing axes have trivial windows (channels-last layouts such as NHWC with a
 * window {@code [1, kh, kw, 1]}): every window element is then a contiguous block of
 * {@code inner} values, so each output block is combined from whole input blocks, vector by
 * vector, in row-major window order. Padding blocks are skipped (they hold the identity).
 */
final class ChannelPooling {
    private ChannelPooling() {}

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    /** The split of a window: windows over the {@code outer} axes, and {@code inner} contiguous values per element. */
    record Plan(WindowGeometry outer, int[] outDims, long inner) {}

    /** The plan, or {@code null} when fewer than {@code minInner} contiguous values share every window. */
    static Plan of(Shape in, WindowSpec spec, int minInner) {
        int r = in.rank();
        int split = r;
        long inner = 1;
        while (split > 0 && spec.dims()[split - 1] == 1 && spec.strides()[split - 1] == 1 && spec.padLow()[split - 1] == 0
                && spec.padHigh()[split - 1] == 0) {
            split--;
            inner *= in.dim(split);
        }
        if (inner < minInner || split == 0) return null;
        WindowSpec outerSpec = new WindowSpec(Arrays.copyOf(spec.dims(), split), Arrays.copyOf(spec.strides(), split),
                Arrays.copyOf(spec.padLow(), split), Arrays.copyOf(spec.padHigh(), split), Arrays.copyOf(spec.dilations(), split));
        Shape outerShape = Shape.of(Arrays.copyOf(in.dims(), split));
        WindowGeometry g = new WindowGeometry(outerShape, outerSpec);
        if (g.windowSize > 1 << 24) return null;
        return new Plan(g, WindowGeometry.outputDims(outerShape, outerSpec), inner);
    }

    static void f32(ReduceOp op, MemorySegment src, MemorySegment dst, Plan p, Parallel parallel) {
        int code = opCode(op);
        float id = (float) ReductionKernels.floatIdentity(op);
        WindowGeometry g = p.outer();
        long inner = p.inner(), outs = Shape.of(p.outDims()).size();
        int lanes = F.length();
        Origins at = Origins.of(g, p.outDims(), inner * Float.BYTES);
        parallel.forRange(outs, g.windowSize * inner, (lo, hi) -> {
            int[] coord = new int[g.rank];
            long[] offs = new long[(int) g.windowSize];
            int[] scratch = new int[g.rank];
            WindowGeometry.seek(coord, p.outDims(), lo);
            FloatVector identity = FloatVector.broadcast(F, id);
            for (long o = lo; o < hi; o++) {
                int n = at != null ? at.offsets(o, offs) : windowOffsets(g, coord, scratch, inner * Float.BYTES, offs);
                long out = o * inner * Float.BYTES;
                for (long c = 0; c < inner; c += lanes) {
                    long cb = c * Float.BYTES;
                    FloatVector v = identity;
                    if (c + lanes <= inner) {
                        for (int k = 0; k < n; k++) v = combine(code, v, FloatVector.fromMemorySegment(F, src, offs[k] + cb, ORDER));
                        v.intoMemorySegment(dst, out + cb, ORDER);
                    } else {
                        VectorMask<Float> m = F.indexInRange(c, inner);
                        for (int k = 0; k < n; k++) v = combine(code, v, FloatVector.fromMemorySegment(F, src, offs[k] + cb, ORDER, m));
                        v.intoMemorySegment(dst, out + cb, ORDER, m);
                    }
                }
                WindowGeometry.next(coord, p.outDims());
            }
        });
    }

    /**
     * One output row of a pool whose {@code [1, kh, kw, 1]} windows tile channels-last rows with equal strides and no
     * padding ({@link PooledChains}): output row {@code band} of image {@code image} from {@code ys} ({@code [n, h, w, c]}),
     * each window's vectors combined in row-major window order from {@code identity}, as {@link #f32} combines them.
     */
    static void band(int code, float identity, MemorySegment ys, MemorySegment ps, long image, int band, int h, int w, int c, int kh, int kw) {
        int ow = w / kw, lanes = F.length();
        long rowBytes = (long) w * c * Float.BYTES, pixel = (long) c * Float.BYTES;
        long top = (image * h + (long) band * kh) * rowBytes;
        long out = (image * (h / kh) + band) * ow * pixel;
        FloatVector start = FloatVector.broadcast(F, identity);
        for (int o = 0; o < ow; o++, out += pixel) {
            long origin = top + (long) o * kw * pixel;
            for (int ch = 0; ch < c; ch += lanes) {
                long cb = (long) ch * Float.BYTES;
                FloatVector v = start;
                if (ch + lanes <= c) {
                    for (int i = 0; i < kh; i++) {
                        for (int j = 0; j < kw; j++) v = combine(code, v, FloatVector.fromMemorySegment(F, ys, origin + i * rowBytes + j * pixel + cb, ORDER));
                    }
                    v.intoMemorySegment(ps, out + cb, ORDER);
                } else {
                    VectorMask<Float> m = F.indexInRange(ch, c);
                    for (int i = 0; i < kh; i++) {
                        for (int j = 0; j < kw; j++) v = combine(code, v, FloatVector.fromMemorySegment(F, ys, origin + i * rowBytes + j * pixel + cb, ORDER, m));
                    }
                    v.intoMemorySegment(ps, out + cb, ORDER, m);
                }
            }
        }
    }

    static void f64(ReduceOp op, MemorySegment src, MemorySegment dst, Plan p, Parallel parallel) {
        int code = opCode(op);
        double id = ReductionKernels.floatIdentity(op);
        WindowGeometry g = p.outer();
        long inner = p.inner(), outs = Shape.of(p.outDims()).size();
        int lanes = D.length();
        parallel.forRange(outs, g.windowSize * inner, (lo, hi) -> {
            int[] coord = new int[g.rank];
            long[] offs = new long[(int) g.windowSize];
            int[] scratch = new int[g.rank];
            WindowGeometry.seek(coord, p.outDims(), lo);
            DoubleVector identity = DoubleVector.broadcast(D, id);
            for (long o = lo; o < hi; o++) {
                int n = windowOffsets(g, coord, scratch, inner * Double.BYTES, offs);
                long out = o * inner * Double.BYTES;
                for (long c = 0; c < inner; c += lanes) {
                    long cb = c * Double.BYTES;
                    DoubleVector v = identity;
                    if (c + lanes <= inner) {
                        for (int k = 0; k < n; k++) v = combine(code, v, DoubleVector.fromMemorySegment(D, src, offs[k] + cb, ORDER));
                        v.intoMemorySegment(dst, out + cb, ORDER);
                    } else {
                        VectorMask<Double> m = D.indexInRange(c, inner);
                        for (int k = 0; k < n; k++) v = combine(code, v, DoubleVector.fromMemorySegment(D, src, offs[k] + cb, ORDER, m));
                        v.intoMemorySegment(dst, out + cb, ORDER, m);
                    }
                }
                WindowGeometry.next(coord, p.outDims());
            }
        });
    }

    /**
     * Byte offsets of every window's blocks without a walk per window, where no window touches padding: the windows of
     * the positions after the first axis ({@link WindowGeometry#origins}) shifted by a step per index of the first axis
     * (offsets are linear in the coordinates there). Null where windows touch padding or a plane has too many positions.
     */
    private record Origins(long[] origins, long[] relative, long planeStep, int perPlane) {
        static Origins of(WindowGeometry g, int[] outDims, long blockBytes) {
            long per = 1;
            for (int a = 1; a < outDims.length; a++) per *= outDims[a];
            if (outDims.length < 2 || per > 1 << 16 || per == 0) return null;
            // the first plane's windows, and with a second plane the window at (1, 0, ...) after them, in one walk
            long[] walk = g.origins(outDims, (int) per + (outDims[0] > 1 ? 1 : 0)), rel = g.relative();
            if (walk == null) return null;
            long step = outDims[0] > 1 ? walk[(int) per] - walk[0] : 0;
            long[] origins = new long[(int) per];
            for (int i = 0; i < origins.length; i++) origins[i] = walk[i] * blockBytes;
            for (int i = 0; i < rel.length; i++) rel[i] *= blockBytes;
            return new Origins(origins, rel, step * blockBytes, (int) per);
        }

        /** The byte offsets of output position {@code o}'s window blocks into {@code offs}; returns their count. */
        int offsets(long o, long[] offs) {
            long first = o / perPlane * planeStep + origins[(int) (o % perPlane)];
            for (int i = 0; i < relative.length; i++) offs[i] = first + relative[i];
            return relative.length;
        }
    }

    /** Byte offsets of the window's non-padding blocks, in row-major window order; returns their count. */
    private static int windowOffsets(WindowGeometry g, int[] coord, int[] scratch, long blockBytes, long[] offs) {
        int n = g.offsets(coord, scratch, offs);
        for (int i = 0; i < n; i++) offs[i] *= blockBytes;
        return n;
    }

    static FloatVector combine(int code, FloatVector a, FloatVector b) {
        return switch (code) {
            case SUM -> a.add(b);
            case PRODUCT -> a.mul(b);
            case MAX -> a.max(b);
            default -> a.min(b);
        };
    }

    private static DoubleVector combine(int code, DoubleVector a, DoubleVector b) {
        return switch (code) {
            case SUM -> a.add(b);
            case PRODUCT -> a.mul(b);
            case MAX -> a.max(b);
            default -> a.min(b);
        };
    }

    private static final int SUM = 0, PRODUCT = 1, MAX = 2, MIN = 3;

    static int opCode(ReduceOp op) {
        return switch (op) {
            case SUM -> SUM;
            case PRODUCT -> PRODUCT;
            case REDUCE_MAX -> MAX;
            case REDUCE_MIN -> MIN;
            case ALL, ANY, ARGMAX, ARGMIN, MEAN, LOG_SUM_EXP -> throw new JBurnException(op.opName(), "is not a window reduction");
        };
    }
}
