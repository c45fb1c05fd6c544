package dev.jburn.reference;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Vector API kernels for contiguous F64 (double) elements, and their scalar tails. Positions are
 * element indices; comparisons write PRED bytes. Arithmetic, min/max and comparisons equal the
 * oracle bit for bit; exp, expm1, log, log1p, tanh and sigmoid come from {@link PolyMathF64} (within 1-3 ulp), sin and
 * cos from {@link PolyMathTrig} (within 1 ulp of StrictMath): IEEE arithmetic alone, the same bits whether or not C2
 * compiled the caller.
 *
 * <p>One loop per op, each with a constant operator, so C2 compiles every loop to straight SIMD
 * code (a switch inside the loop costs 2-4x). VectorF32/VectorF64 and VectorS32/VectorS64 share one
 * layout each and differ only in element types: change the four files together.
 */
final class VectorF64 {
    private VectorF64() {}

    private static final VectorSpecies<Double> S = DoubleVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final long W = 8;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static final ValueLayout.OfDouble E = ValueLayout.JAVA_DOUBLE_UNALIGNED;
    /** Bytes with as many lanes as S, to store comparison masks as 0/1 bytes; null when no such shape exists (fewer than 8 lanes). */
    private static final VectorSpecies<Byte> BYTES = L * 8 >= 64 ? VectorSpecies.of(byte.class, VectorShape.forBitSize(L * 8)) : null;

    /** {@code out[oi+i] = a[ai+i] k b[bi+i]} for {@code i < n}. */
    static void binary(VectorOps.Binary k, MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long done = switch (k) {
            case ADD -> add(a, ai, b, bi, out, oi, n);
            case SUB -> sub(a, ai, b, bi, out, oi, n);
            case RSUB -> rsub(a, ai, b, bi, out, oi, n);
            case MUL -> mul(a, ai, b, bi, out, oi, n);
            case DIV -> div(a, ai, b, bi, out, oi, n);
            case RDIV -> rdiv(a, ai, b, bi, out, oi, n);
            case MIN -> min(a, ai, b, bi, out, oi, n);
            case MAX -> max(a, ai, b, bi, out, oi, n);
            case EQ -> eq(a, ai, b, bi, out, oi, n);
            case NE -> ne(a, ai, b, bi, out, oi, n);
            case LT -> lt(a, ai, b, bi, out, oi, n);
            case LE -> le(a, ai, b, bi, out, oi, n);
            case GT -> gt(a, ai, b, bi, out, oi, n);
            case GE -> ge(a, ai, b, bi, out, oi, n);
        };
        for (long i = done; i < n; i++) scalar(k, a.getAtIndex(E, ai + i), b.getAtIndex(E, bi + i), out, oi + i);
    }

    /**
     * {@code out[oi+i] = pred[pi+i] != 0 ? a : b} for {@code i < n}, where {@code a} ({@code b}) is
     * {@code sa} ({@code sb}) when {@code as} ({@code bs}) is null, else element {@code ai+i} ({@code bi+i}) of it;
     * {@code pred} holds PRED bytes. Returns how many leading elements it did (the caller does the tail).
     */
    static long select(MemorySegment pred, long pi, MemorySegment as, long ai, double sa, MemorySegment bs, long bi, double sb,
                       MemorySegment out, long oi, long n) {
        if (BYTES == null) return 0;
        long i = 0;
        long bound = n - n % L;
        if (as != null && bs != null) {
            for (; i < bound; i += L) {
                VectorMask<Double> m = ByteVector.fromMemorySegment(BYTES, pred, pi + i, ORDER).compare(VectorOperators.NE, (byte) 0).cast(S);
                DoubleVector x = DoubleVector.fromMemorySegment(S, as, (ai + i) * W, ORDER);
                DoubleVector.fromMemorySegment(S, bs, (bi + i) * W, ORDER).blend(x, m).intoMemorySegment(out, (oi + i) * W, ORDER);
            }
        } else if (as == null && bs != null) {
            DoubleVector x = DoubleVector.broadcast(S, sa);
            for (; i < bound; i += L) {
                VectorMask<Double> m = ByteVector.fromMemorySegment(BYTES, pred, pi + i, ORDER).compare(VectorOperators.NE, (byte) 0).cast(S);
                DoubleVector.fromMemorySegment(S, bs, (bi + i) * W, ORDER).blend(x, m).intoMemorySegment(out, (oi + i) * W, ORDER);
            }
        } else if (as != null) {
            DoubleVector y = DoubleVector.broadcast(S, sb);
            for (; i < bound; i += L) {
                VectorMask<Double> m = ByteVector.fromMemorySegment(BYTES, pred, pi + i, ORDER).compare(VectorOperators.NE, (byte) 0).cast(S);
                y.blend(DoubleVector.fromMemorySegment(S, as, (ai + i) * W, ORDER), m).intoMemorySegment(out, (oi + i) * W, ORDER);
            }
        } else {
            DoubleVector x = DoubleVector.broadcast(S, sa), y = DoubleVector.broadcast(S, sb);
            for (; i < bound; i += L) {
                VectorMask<Double> m = ByteVector.fromMemorySegment(BYTES, pred, pi + i, ORDER).compare(VectorOperators.NE, (byte) 0).cast(S);
                y.blend(x, m).intoMemorySegment(out, (oi + i) * W, ORDER);
            }
        }
        return i;
    }

    /** {@code out[oi+i] = a[ai+i] k s} for {@code i < n}. */
    static void binaryScalar(VectorOps.Binary k, MemorySegment a, long ai, double s, MemorySegment out, long oi, long n) {
        long done = switch (k) {
            case ADD -> addS(a, ai, s, out, oi, n);
            case SUB -> subS(a, ai, s, out, oi, n);
            case RSUB -> rsubS(a, ai, s, out, oi, n);
            case MUL -> mulS(a, ai, s, out, oi, n);
            case DIV -> divS(a, ai, s, out, oi, n);
            case RDIV -> rdivS(a, ai, s, out, oi, n);
            case MIN -> minS(a, ai, s, out, oi, n);
            case MAX -> maxS(a, ai, s, out, oi, n);
            case EQ -> eqS(a, ai, s, out, oi, n);
            case NE -> neS(a, ai, s, out, oi, n);
            case LT -> ltS(a, ai, s, out, oi, n);
            case LE -> leS(a, ai, s, out, oi, n);
            case GT -> gtS(a, ai, s, out, oi, n);
            case GE -> geS(a, ai, s, out, oi, n);
        };
        for (long i = done; i < n; i++) scalar(k, a.getAtIndex(E, ai + i), s, out, oi + i);
    }

    private static void scalar(VectorOps.Binary k, double x, double y, MemorySegment out, long o) {
        switch (k) {
            case ADD -> out.setAtIndex(E, o, x + y);
            case SUB -> out.setAtIndex(E, o, x - y);
            case RSUB -> out.setAtIndex(E, o, y - x);
            case MUL -> out.setAtIndex(E, o, x * y);
            case DIV -> out.setAtIndex(E, o, x / y);
            case RDIV -> out.setAtIndex(E, o, y / x);
            case MIN -> out.setAtIndex(E, o, Math.min(x, y));
            case MAX -> out.setAtIndex(E, o, Math.max(x, y));
            case EQ -> VectorLanes.storeBool(out, o, x == y);
            case NE -> VectorLanes.storeBool(out, o, x != y);
            case LT -> VectorLanes.storeBool(out, o, x < y);
            case LE -> VectorLanes.storeBool(out, o, x <= y);
            case GT -> VectorLanes.storeBool(out, o, x > y);
            case GE -> VectorLanes.storeBool(out, o, x >= y);
        }
    }

    private static long add(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER), y = DoubleVector.fromMemorySegment(S, b, (bi + i) * W, ORDER);
            x.add(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long addS(MemorySegment a, long ai, double s, MemorySegment out, long oi, long n) {
        DoubleVector y = DoubleVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER);
            x.add(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long sub(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER), y = DoubleVector.fromMemorySegment(S, b, (bi + i) * W, ORDER);
            x.sub(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long subS(MemorySegment a, long ai, double s, MemorySegment out, long oi, long n) {
        DoubleVector y = DoubleVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER);
            x.sub(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long rsub(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER), y = DoubleVector.fromMemorySegment(S, b, (bi + i) * W, ORDER);
            y.sub(x).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long rsubS(MemorySegment a, long ai, double s, MemorySegment out, long oi, long n) {
        DoubleVector y = DoubleVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER);
            y.sub(x).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long mul(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER), y = DoubleVector.fromMemorySegment(S, b, (bi + i) * W, ORDER);
            x.mul(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long mulS(MemorySegment a, long ai, double s, MemorySegment out, long oi, long n) {
        DoubleVector y = DoubleVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER);
            x.mul(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long div(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER), y = DoubleVector.fromMemorySegment(S, b, (bi + i) * W, ORDER);
            x.div(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long divS(MemorySegment a, long ai, double s, MemorySegment out, long oi, long n) {
        DoubleVector y = DoubleVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER);
            x.div(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long rdiv(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER), y = DoubleVector.fromMemorySegment(S, b, (bi + i) * W, ORDER);
            y.div(x).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long rdivS(MemorySegment a, long ai, double s, MemorySegment out, long oi, long n) {
        DoubleVector y = DoubleVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER);
            y.div(x).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long min(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER), y = DoubleVector.fromMemorySegment(S, b, (bi + i) * W, ORDER);
            x.min(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long minS(MemorySegment a, long ai, double s, MemorySegment out, long oi, long n) {
        DoubleVector y = DoubleVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER);
            x.min(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long max(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER), y = DoubleVector.fromMemorySegment(S, b, (bi + i) * W, ORDER);
            x.max(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long maxS(MemorySegment a, long ai, double s, MemorySegment out, long oi, long n) {
        DoubleVector y = DoubleVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector x = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER);
            x.max(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long eq(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Double> m = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.EQ, DoubleVector.fromMemorySegment(S, b, (bi + i) * W, ORDER));
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long eqS(MemorySegment a, long ai, double s, MemorySegment out, long oi, long n) {
        DoubleVector y = DoubleVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Double> m = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.EQ, y);
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long ne(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Double> m = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.NE, DoubleVector.fromMemorySegment(S, b, (bi + i) * W, ORDER));
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long neS(MemorySegment a, long ai, double s, MemorySegment out, long oi, long n) {
        DoubleVector y = DoubleVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Double> m = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.NE, y);
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long lt(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Double> m = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.LT, DoubleVector.fromMemorySegment(S, b, (bi + i) * W, ORDER));
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long ltS(MemorySegment a, long ai, double s, MemorySegment out, long oi, long n) {
        DoubleVector y = DoubleVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Double> m = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.LT, y);
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long le(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Double> m = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.LE, DoubleVector.fromMemorySegment(S, b, (bi + i) * W, ORDER));
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long leS(MemorySegment a, long ai, double s, MemorySegment out, long oi, long n) {
        DoubleVector y = DoubleVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Double> m = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.LE, y);
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long gt(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Double> m = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.GT, DoubleVector.fromMemorySegment(S, b, (bi + i) * W, ORDER));
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long gtS(MemorySegment a, long ai, double s, MemorySegment out, long oi, long n) {
        DoubleVector y = DoubleVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Double> m = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.GT, y);
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long ge(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Double> m = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.GE, DoubleVector.fromMemorySegment(S, b, (bi + i) * W, ORDER));
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long geS(MemorySegment a, long ai, double s, MemorySegment out, long oi, long n) {
        DoubleVector y = DoubleVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Double> m = DoubleVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.GE, y);
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    /** {@code out[oi+i] = k(x[xi+i])} for {@code i < n}. */
    static void unary(VectorOps.Unary k, MemorySegment x, long xi, MemorySegment out, long oi, long n) {
        long done = switch (k) {
            case NEG -> neg(x, xi, out, oi, n);
            case ABS -> abs(x, xi, out, oi, n);
            case SQRT -> sqrt(x, xi, out, oi, n);
            case RSQRT -> rsqrt(x, xi, out, oi, n);
            // Not lanewise(EXP/LOG/TANH/...): its bits differ between a compiled caller (SVML-like stubs) and an
            // interpreted one (Math per lane), so one F64 tanh could give two results in one run depending on JIT
            // timing (CI saw a layer's training forward differ in the last bit between two identical calls).
            // PolyMathF64 and PolyMathTrig are IEEE arithmetic only: the same bits in every mode, in the body and in
            // the tail.
            case EXP -> exp(x, xi, out, oi, n);
            case EXPM1 -> expm1(x, xi, out, oi, n);
            case LOG -> PolyMathF64.logs(false, x, xi, out, oi, n);
            case LOG1P -> PolyMathF64.logs(true, x, xi, out, oi, n);
            case SIN -> sin(x, xi, out, oi, n);
            case COS -> cos(x, xi, out, oi, n);
            case TANH -> tanh(x, xi, out, oi, n);
            case SIGMOID -> sigmoid(x, xi, out, oi, n);
        };
        for (long i = done; i < n; i++) out.setAtIndex(E, oi + i, unaryScalar(k, x.getAtIndex(E, xi + i)));
    }

    /** One element as the vector body computes it (transcendental functions: the PolyMathF64/PolyMathTrig scalar twins). */
    private static double unaryScalar(VectorOps.Unary k, double v) {
        return switch (k) {
            case NEG -> -v;
            case ABS -> Math.abs(v);
            case SQRT -> Math.sqrt(v);
            case RSQRT -> (1 / Math.sqrt(v));
            case EXP -> PolyMathF64.exp(v);
            case EXPM1 -> PolyMathF64.expm1(v);
            case LOG -> PolyMathF64.log(v);
            case LOG1P -> PolyMathF64.log1p(v);
            case SIN -> PolyMathTrig.sin(v);
            case COS -> PolyMathTrig.cos(v);
            case TANH -> PolyMathF64.tanh(v);
            case SIGMOID -> PolyMathF64.sigmoid(v);
        };
    }

    private static long neg(MemorySegment x, long xi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector v = DoubleVector.fromMemorySegment(S, x, (xi + i) * W, ORDER);
            v.neg().intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long abs(MemorySegment x, long xi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector v = DoubleVector.fromMemorySegment(S, x, (xi + i) * W, ORDER);
            v.abs().intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long sqrt(MemorySegment x, long xi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector v = DoubleVector.fromMemorySegment(S, x, (xi + i) * W, ORDER);
            v.sqrt().intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long rsqrt(MemorySegment x, long xi, MemorySegment out, long oi, long n) {
        DoubleVector one = DoubleVector.broadcast(S, 1.0);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector v = DoubleVector.fromMemorySegment(S, x, (xi + i) * W, ORDER);
            one.div(v.sqrt()).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long exp(MemorySegment x, long xi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector v = DoubleVector.fromMemorySegment(S, x, (xi + i) * W, ORDER);
            PolyMathF64.exp(v).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long expm1(MemorySegment x, long xi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector v = DoubleVector.fromMemorySegment(S, x, (xi + i) * W, ORDER);
            PolyMathF64.expm1(v).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long sin(MemorySegment x, long xi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector v = DoubleVector.fromMemorySegment(S, x, (xi + i) * W, ORDER);
            PolyMathTrig.sin(v).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long cos(MemorySegment x, long xi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector v = DoubleVector.fromMemorySegment(S, x, (xi + i) * W, ORDER);
            PolyMathTrig.cos(v).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long tanh(MemorySegment x, long xi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector v = DoubleVector.fromMemorySegment(S, x, (xi + i) * W, ORDER);
            PolyMathF64.tanh(v).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long sigmoid(MemorySegment x, long xi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            DoubleVector v = DoubleVector.fromMemorySegment(S, x, (xi + i) * W, ORDER);
            PolyMathF64.sigmoid(v).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }
}
