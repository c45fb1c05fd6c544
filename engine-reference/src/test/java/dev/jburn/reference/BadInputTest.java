package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every public {@link Tensor} method, called with hostile arguments (nulls, negative and huge
 * sizes and axes, empty and mismatched arrays, tensors of other shapes and dtypes, a closed
 * tensor), either works or throws {@link JBurnException}: no other exception type escapes, and
 * the JVM survives.
 */
class BadInputTest {
    private static final Set<String> SKIP = Set.of("wait", "notify", "notifyAll", "getClass", "hashCode", "equals", "toString", "close");

    private final Random rnd = new Random(20261130);

    @Test
    void onlyJBurnExceptionsEscape() {
        List<String> escaped = new ArrayList<>();
        List<Tensor> receivers = List.of(
                Tensor.of(new float[][] {{1, 2, 3}, {4, 5, 6}}),
                Tensor.of(1, 2, 3).asType(DType.U8),
                Tensor.scalar(2.5),
                Tensor.zeros(Shape.of(0, 3), DType.S64),
                Tensor.of(true, false));
        int calls = 0;
        for (Method m : Tensor.class.getMethods()) {
            // Tensor's own methods and those of its op-family interfaces (TensorElementwise, ...).
            boolean ours = m.getDeclaringClass() == Tensor.class
                    || (m.getDeclaringClass().isInterface() && m.getDeclaringClass().getPackageName().equals("dev.jburn"));
            if (!ours || SKIP.contains(m.getName())) continue;
            for (int trial = 0; trial < 12; trial++) {
                Object target = Modifier.isStatic(m.getModifiers()) ? null : receivers.get(rnd.nextInt(receivers.size()));
                Object[] args = new Object[m.getParameterCount()];
                Class<?>[] types = m.getParameterTypes();
                for (int i = 0; i < args.length; i++) args[i] = hostile(types[i], i == args.length - 1 && m.isVarArgs());
                calls++;
                try {
                    m.invoke(target, args);
                } catch (InvocationTargetException e) {
                    Throwable c = e.getCause();
                    if (!(c instanceof JBurnException)) {
                        escaped.add(m.getName() + describe(args) + " -> " + c);
                    }
                } catch (IllegalAccessException | IllegalArgumentException e) {
                    fail(m + ": " + e);
                } catch (OutOfMemoryError e) {
                    escaped.add(m.getName() + describe(args) + " -> " + e);
                }
            }
        }
        if (!escaped.isEmpty()) {
            fail(escaped.size() + " of " + calls + " hostile calls threw something other than JBurnException:\n  "
                    + String.join("\n  ", escaped.stream().distinct().sorted(java.util.Comparator.comparing(s -> s.substring(s.indexOf(" -> ")))).limit(80).toList()));
        }
    }

    private static String describe(Object[] args) {
        StringBuilder sb = new StringBuilder("(");
        for (Object a : args) {
            if (sb.length() > 1) sb.append(", ");
            sb.append(a == null ? "null" : a instanceof int[] ia ? java.util.Arrays.toString(ia)
                    : a instanceof Tensor t ? t.dtype().shortName() + t.shape() : a.getClass().getSimpleName() + ":" + a);
        }
        return sb.append(')').toString();
    }

    private Object hostile(Class<?> t, boolean varargs) {
        int pick = rnd.nextInt(6);
        if (t == int.class) return new int[] {0, 1, -1, -7, 5, Integer.MAX_VALUE, Integer.MIN_VALUE, 2}[rnd.nextInt(8)];
        if (t == long.class) return new long[] {0, 1, -1, 300, Long.MAX_VALUE, Long.MIN_VALUE}[rnd.nextInt(6)];
        if (t == double.class) return new double[] {0, 1.5, -2, Double.NaN, Double.POSITIVE_INFINITY, 1e300}[rnd.nextInt(6)];
        if (t == float.class) return new float[] {0, 1.5f, Float.NaN, -3}[rnd.nextInt(4)];
        if (t == boolean.class) return rnd.nextBoolean();
        if (t == short.class) return (short) -3;
        if (t == byte.class) return (byte) 7;
        if (pick == 0) return null;
        if (t == int[].class) {
            return switch (rnd.nextInt(6)) {
                case 0 -> new int[0];
                case 1 -> new int[] {-9};
                case 2 -> new int[] {0, 0};
                case 3 -> new int[] {Integer.MAX_VALUE, 1};
                case 4 -> new int[] {1, -1};
                default -> new int[] {2, 3, 4, 5, 6};
            };
        }
        if (t == int[][].class) return rnd.nextBoolean() ? new int[][] {{1, 1}} : new int[][] {{0, 0, -1}, {1, 1, 0}, {null == null ? -5 : 0, 2, 1}};
        if (t == long[].class) return new long[] {1, -2};
        if (t == float[].class) return new float[] {1, 2};
        if (t == double[].class) return new double[] {1};
        if (t == short[].class) return new short[0];
        if (t == byte[].class) return new byte[] {1};
        if (t == boolean[].class) return new boolean[] {true};
        if (t == float[][].class) return new float[][] {{1}, {2, 3}};
        if (t == double[][].class) return new double[][] {{}};
        if (t == long[][].class) return new long[][] {{1, 2}};
        if (t == int[][].class) return new int[][] {{1}, {}};
        if (t == boolean[][].class) return new boolean[][] {{true}};
        if (t == Tensor.class) {
            return switch (rnd.nextInt(7)) {
                case 0 -> Tensor.of(1f, 2f, 3f);
                case 1 -> Tensor.of(new int[][] {{0, 1}, {1, 0}});
                case 2 -> Tensor.scalar(7);
                case 3 -> Tensor.of(2.5, -1.0).asType(DType.BF16);
                case 4 -> { Tensor c = Tensor.of(1f); c.close(); yield c; }
                case 5 -> Tensor.zeros(Shape.of(0), DType.U64);
                default -> Tensor.of(new float[][] {{1, 2, 3}, {4, 5, 6}});
            };
        }
        if (t == Tensor[].class) return rnd.nextBoolean() ? new Tensor[0] : new Tensor[] {Tensor.of(1f, 2f), null};
        if (t == List.class) return rnd.nextBoolean() ? List.of() : List.of(Tensor.of(1f, 2f), Tensor.of(new int[][] {{1}}));
        if (t == Shape.class) return new Shape[] {Shape.scalar(), Shape.of(3, 2), Shape.of(0), Shape.of(2, 3, 1)}[rnd.nextInt(4)];
        if (t == DType.class) return DType.values()[rnd.nextInt(DType.values().length)];
        if (t == Object.class) return rnd.nextBoolean() ? "text" : new Object[] {1, 2};
        if (t.isEnum()) return t.getEnumConstants()[rnd.nextInt(t.getEnumConstants().length)];
        if (t == dev.jburn.Engine.class) return dev.jburn.Engine.defaultEngine();
        return null;
    }
}
