package dev.jburn;

import dev.jburn.spi.HostElements;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;

/** Conversion between (nested) Java arrays and host memory of a given dtype. */
final class HostArrays {
    private HostArrays() {}

    /** The dtype a Java array leaf type maps to. */
    /** Fails naming {@code op} unless {@code value} is a Java array. */
    static void requireArray(String op, Object value) {
        if (value == null || !value.getClass().isArray()) {
            throw new JBurnException(op, "expected a Java array, got " + (value == null ? "null" : value.getClass().getName()));
        }
    }

    static DType dtypeOf(String op, Class<?> leaf) {
        if (leaf == float.class || leaf == Float.class) return DType.F32;
        if (leaf == double.class || leaf == Double.class) return DType.F64;
        if (leaf == int.class || leaf == Integer.class) return DType.S32;
        if (leaf == long.class || leaf == Long.class) return DType.S64;
        if (leaf == short.class || leaf == Short.class) return DType.S16;
        if (leaf == byte.class || leaf == Byte.class) return DType.S8;
        if (leaf == boolean.class || leaf == Boolean.class) return DType.PRED;
        throw new JBurnException(op, "cannot make a tensor from elements of type " + leaf.getName()
                + "; use float, double, int, long, short, byte or boolean arrays");
    }

    /** Shape of a rectangular nested array; ragged arrays are refused. */
    static Shape shapeOf(Object array) {
        List<Integer> dims = new ArrayList<>();
        Object cur = array;
        while (cur != null && cur.getClass().isArray()) {
            int n = Array.getLength(cur);
            dims.add(n);
            if (n == 0) break;
            cur = Array.get(cur, 0);
        }
        int[] d = dims.stream().mapToInt(Integer::intValue).toArray();
        return Shape.of(d);
    }

    static Class<?> leafType(Object array) {
        Class<?> c = array.getClass();
        while (c.isArray()) c = c.getComponentType();
        return c;
    }

    /** Flattens a nested array into {@code dst} (elements of {@code dtype}), checking it is rectangular. */
    static void fill(String op, Object array, Shape shape, DType dtype, MemorySegment dst) {
        long[] next = {0};
        fill(op, array, shape.dims(), 0, dtype, dst, next);
    }

    private static void fill(String op, Object a, int[] dims, int depth, DType t, MemorySegment dst, long[] next) {
        if (a == null || !a.getClass().isArray() || Array.getLength(a) != dims[depth]) {
            throw new JBurnException(op, "nested arrays must be rectangular; expected shape " + java.util.Arrays.toString(dims)
                    + " but a row at depth " + depth + " differs");
        }
        int n = dims[depth];
        if (depth == dims.length - 1) {
            for (int i = 0; i < n; i++) {
                Object v = Array.get(a, i);
                long at = next[0]++;
                switch (v) {
                    case Double d -> HostElements.setDouble(dst, t, at, d);
                    case Float f -> HostElements.setDouble(dst, t, at, f);
                    case Boolean b -> HostElements.setLong(dst, t, at, b ? 1 : 0);
                    case Number num -> HostElements.setLong(dst, t, at, num.longValue());
                    default -> throw new JBurnException(op, "unsupported element " + v);
                }
            }
            return;
        }
        for (int i = 0; i < n; i++) fill(op, Array.get(a, i), dims, depth + 1, t, dst, next);
    }

    /** A host copy of a tensor's bytes, valid while {@code arena} is open. */
    static MemorySegment download(Tensor t, Arena arena) {
        long bytes = t.dtype().byteSize(t.shape());
        dev.jburn.spi.HostMemory.check(bytes);
        MemorySegment host = arena.allocate(Math.max(bytes, 1), 8).asSlice(0, bytes);
        if (bytes > 0) t.read(0, host);
        return host;
    }
}
