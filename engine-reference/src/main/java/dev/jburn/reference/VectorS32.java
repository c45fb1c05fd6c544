package dev.jburn.reference;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Vector API kernels for contiguous S32 (int) elements, and their scalar tails: wrapping add,
 * subtract, multiply, negate and abs, min/max and comparisons (PRED bytes). Positions are
 * element indices. Equal to the oracle bit for bit.
 *
 * <p>One loop per op, each with a constant operator, so C2 compiles every loop to straight SIMD
 * code (a switch inside the loop costs 2-4x). VectorF32/VectorF64 and VectorS32/VectorS64 share one
 * layout each and differ only in element types: change the four files together.
 */
final class VectorS32 {
    private VectorS32() {}

    private static final VectorSpecies<Integer> S = IntVector.SPECIES_PREFERRED;
    private static final int L = S.length();
    private static final long W = 4;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static final ValueLayout.OfInt E = ValueLayout.JAVA_INT_UNALIGNED;
    /** Bytes with as many lanes as S, to store comparison masks as 0/1 bytes; null when no such shape exists (fewer than 8 lanes). */
    private static final VectorSpecies<Byte> BYTES = L * 8 >= 64 ? VectorSpecies.of(byte.class, VectorShape.forBitSize(L * 8)) : null;

    /** {@code out[oi+i] = a[ai+i] k b[bi+i]} for {@code i < n}. */
    static void binary(VectorOps.Binary k, MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long done = switch (k) {
            case ADD -> add(a, ai, b, bi, out, oi, n);
            case SUB -> sub(a, ai, b, bi, out, oi, n);
            case RSUB -> rsub(a, ai, b, bi, out, oi, n);
            case MUL -> mul(a, ai, b, bi, out, oi, n);
            case MIN -> min(a, ai, b, bi, out, oi, n);
            case MAX -> max(a, ai, b, bi, out, oi, n);
            case EQ -> eq(a, ai, b, bi, out, oi, n);
            case NE -> ne(a, ai, b, bi, out, oi, n);
            case LT -> lt(a, ai, b, bi, out, oi, n);
            case LE -> le(a, ai, b, bi, out, oi, n);
            case GT -> gt(a, ai, b, bi, out, oi, n);
            case GE -> ge(a, ai, b, bi, out, oi, n);
            case DIV, RDIV -> throw noDivision();
        };
        for (long i = done; i < n; i++) scalar(k, a.getAtIndex(E, ai + i), b.getAtIndex(E, bi + i), out, oi + i);
    }

    /** {@code out[oi+i] = a[ai+i] k s} for {@code i < n}. */
    static void binaryScalar(VectorOps.Binary k, MemorySegment a, long ai, int s, MemorySegment out, long oi, long n) {
        long done = switch (k) {
            case ADD -> addS(a, ai, s, out, oi, n);
            case SUB -> subS(a, ai, s, out, oi, n);
            case RSUB -> rsubS(a, ai, s, out, oi, n);
            case MUL -> mulS(a, ai, s, out, oi, n);
            case MIN -> minS(a, ai, s, out, oi, n);
            case MAX -> maxS(a, ai, s, out, oi, n);
            case EQ -> eqS(a, ai, s, out, oi, n);
            case NE -> neS(a, ai, s, out, oi, n);
            case LT -> ltS(a, ai, s, out, oi, n);
            case LE -> leS(a, ai, s, out, oi, n);
            case GT -> gtS(a, ai, s, out, oi, n);
            case GE -> geS(a, ai, s, out, oi, n);
            case DIV, RDIV -> throw noDivision();
        };
        for (long i = done; i < n; i++) scalar(k, a.getAtIndex(E, ai + i), s, out, oi + i);
    }

    private static void scalar(VectorOps.Binary k, int x, int y, MemorySegment out, long o) {
        switch (k) {
            case ADD -> out.setAtIndex(E, o, x + y);
            case SUB -> out.setAtIndex(E, o, x - y);
            case RSUB -> out.setAtIndex(E, o, y - x);
            case MUL -> out.setAtIndex(E, o, x * y);
            case MIN -> out.setAtIndex(E, o, Math.min(x, y));
            case MAX -> out.setAtIndex(E, o, Math.max(x, y));
            case EQ -> VectorLanes.storeBool(out, o, x == y);
            case NE -> VectorLanes.storeBool(out, o, x != y);
            case LT -> VectorLanes.storeBool(out, o, x < y);
            case LE -> VectorLanes.storeBool(out, o, x <= y);
            case GT -> VectorLanes.storeBool(out, o, x > y);
            case GE -> VectorLanes.storeBool(out, o, x >= y);
            case DIV, RDIV -> throw noDivision();
        }
    }

    private static long add(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            IntVector x = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER), y = IntVector.fromMemorySegment(S, b, (bi + i) * W, ORDER);
            x.add(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long addS(MemorySegment a, long ai, int s, MemorySegment out, long oi, long n) {
        IntVector y = IntVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            IntVector x = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER);
            x.add(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long sub(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            IntVector x = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER), y = IntVector.fromMemorySegment(S, b, (bi + i) * W, ORDER);
            x.sub(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long subS(MemorySegment a, long ai, int s, MemorySegment out, long oi, long n) {
        IntVector y = IntVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            IntVector x = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER);
            x.sub(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long rsub(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            IntVector x = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER), y = IntVector.fromMemorySegment(S, b, (bi + i) * W, ORDER);
            y.sub(x).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long rsubS(MemorySegment a, long ai, int s, MemorySegment out, long oi, long n) {
        IntVector y = IntVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            IntVector x = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER);
            y.sub(x).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long mul(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            IntVector x = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER), y = IntVector.fromMemorySegment(S, b, (bi + i) * W, ORDER);
            x.mul(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long mulS(MemorySegment a, long ai, int s, MemorySegment out, long oi, long n) {
        IntVector y = IntVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            IntVector x = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER);
            x.mul(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long min(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            IntVector x = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER), y = IntVector.fromMemorySegment(S, b, (bi + i) * W, ORDER);
            x.min(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long minS(MemorySegment a, long ai, int s, MemorySegment out, long oi, long n) {
        IntVector y = IntVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            IntVector x = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER);
            x.min(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long max(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            IntVector x = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER), y = IntVector.fromMemorySegment(S, b, (bi + i) * W, ORDER);
            x.max(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long maxS(MemorySegment a, long ai, int s, MemorySegment out, long oi, long n) {
        IntVector y = IntVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            IntVector x = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER);
            x.max(y).intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long eq(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Integer> m = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.EQ, IntVector.fromMemorySegment(S, b, (bi + i) * W, ORDER));
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long eqS(MemorySegment a, long ai, int s, MemorySegment out, long oi, long n) {
        IntVector y = IntVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Integer> m = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.EQ, y);
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long ne(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Integer> m = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.NE, IntVector.fromMemorySegment(S, b, (bi + i) * W, ORDER));
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long neS(MemorySegment a, long ai, int s, MemorySegment out, long oi, long n) {
        IntVector y = IntVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Integer> m = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.NE, y);
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long lt(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Integer> m = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.LT, IntVector.fromMemorySegment(S, b, (bi + i) * W, ORDER));
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long ltS(MemorySegment a, long ai, int s, MemorySegment out, long oi, long n) {
        IntVector y = IntVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Integer> m = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.LT, y);
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long le(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Integer> m = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.LE, IntVector.fromMemorySegment(S, b, (bi + i) * W, ORDER));
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long leS(MemorySegment a, long ai, int s, MemorySegment out, long oi, long n) {
        IntVector y = IntVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Integer> m = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.LE, y);
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long gt(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Integer> m = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.GT, IntVector.fromMemorySegment(S, b, (bi + i) * W, ORDER));
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long gtS(MemorySegment a, long ai, int s, MemorySegment out, long oi, long n) {
        IntVector y = IntVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Integer> m = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.GT, y);
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long ge(MemorySegment a, long ai, MemorySegment b, long bi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Integer> m = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.GE, IntVector.fromMemorySegment(S, b, (bi + i) * W, ORDER));
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    private static long geS(MemorySegment a, long ai, int s, MemorySegment out, long oi, long n) {
        IntVector y = IntVector.broadcast(S, s);
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            VectorMask<Integer> m = IntVector.fromMemorySegment(S, a, (ai + i) * W, ORDER).compare(VectorOperators.GE, y);
            if (BYTES != null) ByteVector.zero(BYTES).blend((byte) 1, m.cast(BYTES)).intoMemorySegment(out, oi + i, ORDER);
            else VectorLanes.storeMask(out, oi + i, m.toLong(), L);
        }
        return i;
    }

    /** {@code out[oi+i] = k(x[xi+i])} for {@code i < n}; NEG and ABS only (both wrap at the minimum). */
    static void unary(VectorOps.Unary k, MemorySegment x, long xi, MemorySegment out, long oi, long n) {
        long done = switch (k) {
            case NEG -> neg(x, xi, out, oi, n);
            case ABS -> abs(x, xi, out, oi, n);
            case SQRT, RSQRT, EXP, EXPM1, LOG, LOG1P, SIN, COS, TANH, SIGMOID -> throw noFloatMath(k);
        };
        for (long i = done; i < n; i++) out.setAtIndex(E, oi + i, unaryScalar(k, x.getAtIndex(E, xi + i)));
    }

    /** The oracle's value for one element. */
    private static int unaryScalar(VectorOps.Unary k, int v) {
        return switch (k) {
            case NEG -> (int) -v;
            case ABS -> Math.abs(v);
            case SQRT, RSQRT, EXP, EXPM1, LOG, LOG1P, SIN, COS, TANH, SIGMOID -> throw noFloatMath(k);
        };
    }

    private static long neg(MemorySegment x, long xi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            IntVector v = IntVector.fromMemorySegment(S, x, (xi + i) * W, ORDER);
            v.neg().intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static long abs(MemorySegment x, long xi, MemorySegment out, long oi, long n) {
        long i = 0;
        for (long bound = n - n % L; i < bound; i += L) {
            IntVector v = IntVector.fromMemorySegment(S, x, (xi + i) * W, ORDER);
            v.abs().intoMemorySegment(out, (oi + i) * W, ORDER);
        }
        return i;
    }

    private static IllegalStateException noDivision() {
        return new IllegalStateException("integer division has no vector kernel; VectorOps.Binary.of should have refused it");
    }

    private static IllegalStateException noFloatMath(VectorOps.Unary k) {
        return new IllegalStateException(k + " on integers has no vector kernel; VectorOps.Unary.of should have refused it");
    }
}
