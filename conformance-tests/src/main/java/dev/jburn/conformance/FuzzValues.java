package dev.jburn.conformance;

import dev.jburn.ConvOptions;
import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.LinAlg;
import dev.jburn.Padding;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.WindowOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Executable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The argument values of {@link ApiFuzzer}: hostile but cheap. Tensors are small (at most 64
 * elements) or empty with huge axes; shapes reach 2³¹ per axis; numbers include every extreme.
 * Tensors made for a call are closed after it.
 */
final class FuzzValues {
    /** The classes whose public methods and constructors are entry points. */
    static final List<Class<?>> API_CLASSES = List.of(
            Tensor.class, LinAlg.class, dev.jburn.Prng.class, Shape.class, Padding.class, ConvOptions.class,
            WindowOptions.class, LinAlg.Ord.class,
            dev.jburn.io.SafeTensors.class, dev.jburn.io.ModelFile.class, dev.jburn.data.Idx.class, dev.jburn.data.Csv.class,
            dev.jburn.data.CsvOptions.class,
            dev.jburn.nn.layers.Dense.class, dev.jburn.nn.layers.Conv.class, dev.jburn.nn.layers.Dropout.class,
            dev.jburn.nn.layers.Embedding.class, dev.jburn.nn.layers.Pool.class, dev.jburn.nn.layers.Reshape.class,
            dev.jburn.nn.layers.LayerNorm.class, dev.jburn.nn.layers.BatchNorm.class, dev.jburn.nn.layers.Pad.class,
            dev.jburn.nn.layers.Slice.class, dev.jburn.nn.layers.Transpose.class, dev.jburn.nn.layers.MultiHeadAttention.class,
            dev.jburn.nn.layers.Lstm.class, dev.jburn.nn.layers.Gru.class, dev.jburn.nn.layers.GroupNorm.class);

    /** Classes whose errors must name the method itself (a family of functions, not one thing being built). */
    static final Set<Class<?>> NAMED_BY_METHOD = Set.of(Tensor.class, dev.jburn.TensorElementwise.class,
            dev.jburn.TensorReductions.class, dev.jburn.TensorShapes.class, dev.jburn.TensorIndexing.class,
            dev.jburn.TensorWindows.class, LinAlg.class, dev.jburn.Prng.class);

    /**
     * Ops that name a class by what it is for: a norm order is checked by {@code norm}; a model file
     * names damage to its safetensors structure {@code safetensors}, as its javadoc says.
     */
    static final java.util.Map<Class<?>, String> OP_OF_CLASS = java.util.Map.of(LinAlg.Ord.class, "norm",
            dev.jburn.io.ModelFile.class, "safetensors");

    private static final Set<Class<?>> SIMPLE = Set.of(int.class, long.class, double.class, float.class, boolean.class,
            short.class, byte.class, char.class, String.class, int[].class, long[].class, float[].class, double[].class,
            boolean[].class, short[].class, byte[].class, int[][].class, float[][].class, double[][].class, long[][].class,
            boolean[][].class, Object.class, Tensor.class, Tensor[].class, List.class, Shape.class, DType.class,
            Padding.class, ConvOptions.class, WindowOptions.class, LinAlg.Ord.class, Engine.class, Path.class,
            dev.jburn.data.CsvOptions.class, dev.jburn.nn.Activation.class);

    private static final int[] INTS = {0, 1, 2, 3, -1, -2, 5, 7, Integer.MAX_VALUE, Integer.MIN_VALUE, 1 << 30,
            Integer.MAX_VALUE - 1, 65536};
    private static final long[] LONGS = {0, 1, 2, -1, 300, 65536, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 32, Integer.MAX_VALUE};
    private static final double[] DOUBLES = {0, 1, -1, 0.5, 2.5, -0.0, Double.NaN, Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY, 1e300, Double.MIN_VALUE};
    private static final int[] SMALL_DIMS = {0, 1, 1, 2, 2, 3, 4, 5};
    private static final int[] HUGE_DIMS = {Integer.MAX_VALUE, Integer.MAX_VALUE - 1, 1 << 30, 2147483645};

    private final SplittableRandom rnd;
    private final List<Tensor> made = new ArrayList<>();
    private final List<Path> files = new ArrayList<>();

    FuzzValues(SplittableRandom rnd) { this.rnd = rnd; }

    static boolean generates(Class<?> t) { return SIMPLE.contains(t) || t.isEnum(); }

    /** A receiver of an instance method of {@code c}, or null when the fuzzer makes none. */
    Object receiver(Class<?> c) {
        if (c == Tensor.class || (c.isInterface() && c.getPackageName().equals("dev.jburn"))) return tensorNonNull();
        if (c == Shape.class) return shape();
        if (c == Padding.class) return Padding.SAME;
        if (c == ConvOptions.class) return ConvOptions.defaults();
        if (c == WindowOptions.class) return WindowOptions.defaults();
        if (c == dev.jburn.data.CsvOptions.class) return dev.jburn.data.CsvOptions.defaults();
        return null;
    }

    Object[] arguments(Executable e) {
        Class<?>[] types = e.getParameterTypes();
        java.lang.reflect.Type[] generic = e.getGenericParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < args.length; i++) {
            boolean tensorList = generic.length == types.length
                    && generic[i].getTypeName().equals("java.util.List<dev.jburn.Tensor>");
            args[i] = types[i] == List.class && !tensorList ? List.of() : value(types[i]);
        }
        return args;
    }

    /** Closes the tensors a call's arguments and result made, deletes its files. */
    void release() {
        for (Tensor t : made) t.close();
        made.clear();
        for (Path p : files) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException ignored) {
                // a temporary file: the OS cleans up
            }
        }
        files.clear();
    }

    /** Remembers tensors in a result so that {@link #release} closes them. */
    void consume(Object result) {
        if (result instanceof Tensor t) made.add(t);
        else if (result instanceof Tensor[] ts) made.addAll(Arrays.asList(ts));
        else if (result instanceof AutoCloseable c && result.getClass().getPackageName().startsWith("dev.jburn")) {
            try {
                c.close();
            } catch (Exception ignored) {
                // closing a result is the fuzzer's housekeeping, not a finding
            }
        } else if (result instanceof java.util.Map<?, ?> m) {
            for (Object v : m.values()) consume(v);
        }
    }

    private Object value(Class<?> t) {
        if (t == int.class) return pickInt();
        if (t == long.class) return LONGS[rnd.nextInt(LONGS.length)];
        if (t == double.class) return DOUBLES[rnd.nextInt(DOUBLES.length)];
        if (t == float.class) return (float) DOUBLES[rnd.nextInt(DOUBLES.length)];
        if (t == boolean.class) return rnd.nextBoolean();
        if (t == short.class) return (short) pickInt();
        if (t == byte.class) return (byte) pickInt();
        if (t == char.class) return ",;\t\"\n".charAt(rnd.nextInt(5));
        if (rnd.nextInt(14) == 0) return null;
        if (t == int[].class) return ints();
        if (t == long[].class) return Arrays.stream(ints()).asLongStream().toArray();
        if (t == float[].class) return new float[] {1, 2, 3};
        if (t == double[].class) return rnd.nextBoolean() ? new double[0] : new double[] {1, -2};
        if (t == boolean[].class) return new boolean[] {true, false};
        if (t == short[].class) return new short[] {1};
        if (t == byte[].class) return new byte[] {1, 2};
        if (t == int[][].class) return rnd.nextBoolean() ? new int[][] {ints(), ints()} : new int[][] {{0, 1}, {1, 0}};
        if (t == float[][].class) return rnd.nextBoolean() ? new float[][] {{1, 2}, {3, 4}} : new float[][] {{1}, {2, 3}};
        if (t == double[][].class) return rnd.nextBoolean() ? new double[][] {{}} : new double[][] {{1, 2}};
        if (t == long[][].class) return new long[][] {{1, 2}};
        if (t == boolean[][].class) return new boolean[][] {{true}, {false}};
        if (t == Object.class) return switch (rnd.nextInt(4)) {
            case 0 -> "text";
            case 1 -> new Object[] {1, 2};
            case 2 -> new int[][][] {{{1, 2}}, {{3}}};
            default -> new float[][][] {{{1, 2}}, {{3, 4}}};
        };
        if (t == String.class) return new String[] {"", "cpu", "x", "label", "dense"}[rnd.nextInt(5)];
        if (t == Tensor.class) return tensor();
        if (t == Tensor[].class) return tensors().toArray(new Tensor[0]);
        if (t == List.class) return tensors();
        if (t == Shape.class) return shape();
        if (t == DType.class) return dtype();
        if (t == Padding.class) return padding();
        if (t == ConvOptions.class) return convOptions();
        if (t == WindowOptions.class) return windowOptions();
        if (t == LinAlg.Ord.class) return new LinAlg.Ord[] {LinAlg.Ord.DEFAULT, LinAlg.Ord.FROBENIUS, LinAlg.Ord.NUCLEAR,
                LinAlg.Ord.INF, LinAlg.Ord.NEG_INF, LinAlg.Ord.p(2), LinAlg.Ord.p(-1), LinAlg.Ord.p(0)}[rnd.nextInt(8)];
        if (t == Engine.class) return Engine.defaultEngine();
        if (t == Path.class) return file();
        if (t == dev.jburn.data.CsvOptions.class) return dev.jburn.data.CsvOptions.defaults().header(rnd.nextBoolean());
        if (t == dev.jburn.nn.Activation.class) {
            var kinds = dev.jburn.nn.Activation.Kind.values();
            return new dev.jburn.nn.Activation(kinds[rnd.nextInt(kinds.length)], DOUBLES[rnd.nextInt(DOUBLES.length)]);
        }
        if (t.isEnum()) return t.getEnumConstants()[rnd.nextInt(t.getEnumConstants().length)];
        throw new IllegalStateException("no values of " + t);
    }

    private int pickInt() { return INTS[rnd.nextInt(INTS.length)]; }

    private int[] ints() {
        int[] a = new int[rnd.nextInt(4)];
        for (int i = 0; i < a.length; i++) a[i] = rnd.nextInt(3) == 0 ? pickInt() : rnd.nextInt(-2, 4);
        return a;
    }

    private DType dtype() { return DType.values()[rnd.nextInt(DType.values().length)]; }

    /**
     * A shape of rank 0 to 4 from small sizes, sometimes with 2³¹-sized axes: with a zero axis
     * (an empty tensor), or several of them (a size no memory holds).
     */
    Shape shape() {
        int[] d = new int[rnd.nextInt(5)];
        for (int i = 0; i < d.length; i++) d[i] = SMALL_DIMS[rnd.nextInt(SMALL_DIMS.length)];
        if (d.length >= 2 && rnd.nextInt(6) == 0) {
            d[rnd.nextInt(d.length)] = HUGE_DIMS[rnd.nextInt(HUGE_DIMS.length)];
            if (rnd.nextBoolean()) d[rnd.nextInt(d.length)] = 0;
            else for (int i = 0; i < d.length; i++) if (d[i] < 2) d[i] = HUGE_DIMS[rnd.nextInt(HUGE_DIMS.length)];
        }
        return Shape.of(d);
    }

    private Tensor tensor() {
        if (rnd.nextInt(16) == 0) {
            Tensor closed = Tensor.of(1f, 2f);
            closed.close();
            return closed;
        }
        return tensorNonNull();
    }

    /** A small tensor of a random dtype and shape with values 0, 1, 2, ..., or an empty one with huge axes. */
    private Tensor tensorNonNull() {
        Shape s = shape();
        while (s.size() > 64) s = shape();
        DType t = dtype();
        Tensor out = t.isPred() ? Tensor.iota(s, DType.S32).remainder(2).asType(DType.PRED) : Tensor.iota(s, t);
        made.add(out);
        return out;
    }

    private List<Tensor> tensors() {
        int n = rnd.nextInt(4);
        List<Tensor> out = new ArrayList<>();
        Tensor first = tensorNonNull();
        for (int i = 0; i < n; i++) out.add(rnd.nextInt(3) == 0 ? tensor() : first);
        return out;
    }

    private Padding padding() {
        return switch (rnd.nextInt(4)) {
            case 0 -> Padding.VALID;
            case 1 -> Padding.SAME;
            case 2 -> Padding.symmetric(ints());
            default -> Padding.explicit(new int[] {pickInt(), 1}, new int[] {0, rnd.nextInt(-1, 3)});
        };
    }

    private ConvOptions convOptions() {
        ConvOptions o = ConvOptions.defaults();
        try {
            if (rnd.nextBoolean()) o = o.withStrides(rnd.nextInt(1, 3));
            if (rnd.nextBoolean()) o = o.withPadding(padding());
            if (rnd.nextInt(4) == 0) o = o.withFeatureGroupSize(rnd.nextInt(1, 3));
            if (rnd.nextInt(4) == 0) o = o.withKernelDilation(rnd.nextInt(1, 3));
        } catch (JBurnException refused) {
            // an option value the class refuses: keep what was built
        }
        return o;
    }

    private WindowOptions windowOptions() {
        WindowOptions o = WindowOptions.defaults();
        if (rnd.nextBoolean()) o = o.withStrides(rnd.nextInt(1, 3));
        if (rnd.nextBoolean()) o = o.withPadding(padding());
        if (rnd.nextInt(4) == 0) o = o.withDilations(rnd.nextInt(1, 3));
        return o;
    }

    /** A file of hostile bytes (random, or a plausible header that lies), or a path that does not exist. */
    private Path file() {
        try {
            Path p = Files.createTempFile("jburn-fuzz", ".bin");
            files.add(p);
            byte[] b = new byte[rnd.nextInt(64)];
            for (int i = 0; i < b.length; i++) b[i] = (byte) rnd.nextInt(256);
            switch (rnd.nextInt(4)) {
                case 0 -> Files.write(p, b);
                case 1 -> Files.writeString(p, "{\"format\":\"jburn-model\",\"version\":\"1\",\"layers\":[{\"kind\":\"dense\",\"units\":-3}]}");
                case 2 -> Files.writeString(p, "a,b\n1,2\n3,x\n");
                default -> {
                    Files.delete(p);
                    return p;
                }
            }
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The arguments of a call, short: {@code (f32[2, 3], null, 7)}. */
    static String describe(Object[] args) {
        StringBuilder sb = new StringBuilder("(");
        for (Object a : args) {
            if (sb.length() > 1) sb.append(", ");
            String s = a instanceof Tensor[] ts ? "Tensor[" + ts.length + "]" : a instanceof List<?> l ? "List(" + l.size() + ")"
                    : a == null ? "null" : a instanceof int[] ia ? Arrays.toString(ia) : a instanceof long[] la ? Arrays.toString(la)
                    : a instanceof Tensor t ? (t.isClosed() ? "closed " : "") + t.dtype().shortName() + t.shape()
                    : a instanceof Object[] oa ? Arrays.deepToString(oa) : String.valueOf(a);
            sb.append(s.length() > 40 ? s.substring(0, 40) + "..." : s);
        }
        return sb.append(')').toString();
    }
}
