package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** sum, product, max, min, all, any: Nx examples, output types, keepAxes, empty and error cases, on every engine. */
class ReductionTest {
    private static final double NAN = Double.NaN, INF = Double.POSITIVE_INFINITY;

    private static Tensor iota(int... dims) {
        int n = (int) Shape.of(dims).size();
        int[] v = new int[n];
        for (int i = 0; i < n; i++) v[i] = i;
        return Tensor.of(v).reshape(dims);
    }

    @Test
    void sumOfS8WidensToS32() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor t = Tensor.fromArray(new int[][] {{101, 102}, {103, 104}}, DType.S8).to(e);
            Tensor s = t.sum();
            assertEquals(DType.S32, s.dtype());
            assertEquals(Shape.scalar(), s.shape());
            assertEquals(410L, s.item());
        }
    }

    @Test
    void keepAxesAndNegativeAxes() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor t = Tensor.of(new int[][] {{1, 2}, {3, 4}}).to(e);
            Tensor k = t.sum(new int[] {0}, true);
            assertEquals(Shape.of(1, 2), k.shape());
            assertArrayEquals(new long[] {4, 6}, k.toLongArray());
            Tensor neg = iota(2, 2, 3).to(e).sum(new int[] {-3});
            assertEquals(Shape.of(2, 3), neg.shape());
            assertArrayEquals(new long[] {6, 8, 10, 12, 14, 16}, neg.toLongArray());
            Tensor all = Tensor.of(new int[][] {{1, 2, 3}, {3, 1, 2}}).to(e).min(null, true);
            assertEquals(Shape.of(1, 1), all.shape());
            assertArrayEquals(new long[] {1}, all.toLongArray());
            Tensor mid = iota(2, 3, 4).to(e).max(new int[] {1}, true);
            assertEquals(Shape.of(2, 1, 4), mid.shape());
            assertArrayEquals(new long[] {8, 9, 10, 11, 20, 21, 22, 23}, mid.toLongArray());
            Tensor outer = iota(2, 3, 4).to(e).sum(new int[] {2, 0});
            assertEquals(Shape.of(3), outer.shape());
            assertArrayEquals(new long[] {6 + 54, 22 + 70, 38 + 86}, outer.toLongArray());
        }
    }

    @Test
    void emptyAxesOnlyCast() {
        Tensor t = Tensor.fromArray(new int[] {-1, 2}, DType.S8);
        Tensor s = t.sum(new int[0]);
        assertEquals(DType.S32, s.dtype());
        assertEquals(Shape.of(2), s.shape());
        assertArrayEquals(new long[] {-1, 2}, s.toLongArray());
        assertEquals(DType.PRED, Tensor.of(0f, 2f, Float.NaN).all(new int[0]).dtype());
        assertArrayEquals(new boolean[] {false, true, true}, Tensor.of(0f, 2f, Float.NaN).any(new int[0]).toBooleanArray());
        Tensor scalar = Tensor.scalar(7).sum();
        assertEquals(Shape.scalar(), scalar.shape());
        assertEquals(7L, scalar.item());
    }

    @Test
    void outputTypesAndValuesForEveryDtype() {
        for (Engine e : ReductionEngines.ALL) {
            for (DType t : DType.values()) {
                Tensor x = Tensor.fromArray(new int[][] {{1, 2, 3}, {3, 1, 1}}, t).to(e);
                DType widened = switch (t) {
                    case S8, S16, S32 -> DType.S32;
                    case U8, U16, U32, PRED -> DType.U32;
                    case U64, S64 -> DType.S64;
                    default -> t;
                };
                String msg = t + " on " + e;
                Tensor s = x.sum(new int[] {1});
                assertEquals(widened, s.dtype(), msg);
                Tensor p = x.product();
                assertEquals(widened, p.dtype(), msg);
                assertEquals(t, x.max().dtype(), msg);
                assertEquals(t, x.min(new int[] {0}).dtype(), msg);
                if (t.isPred()) {
                    assertArrayEquals(new double[] {3, 3}, s.toDoubleArray(), msg);
                    assertEquals(1.0, p.toDoubleArray()[0], msg);
                    assertArrayEquals(new double[] {1, 1, 1}, x.min(new int[] {0}).toDoubleArray(), msg);
                } else {
                    assertArrayEquals(new double[] {6, 5}, s.toDoubleArray(), msg);
                    assertEquals(18.0, p.toDoubleArray()[0], msg);
                    assertEquals(3.0, x.max().toDoubleArray()[0], msg);
                    assertArrayEquals(new double[] {1, 1, 1}, x.min(new int[] {0}).toDoubleArray(), msg);
                }
                assertEquals(DType.PRED, x.all().dtype());
                assertArrayEquals(new boolean[] {true, true, true}, x.all(new int[] {0}).toBooleanArray(), msg);
            }
        }
    }

    @Test
    void integerSumsAndProductsWrap() {
        for (Engine e : ReductionEngines.ALL) {
            assertEquals((long) Integer.MIN_VALUE, Tensor.of(Integer.MAX_VALUE, 1).to(e).sum().item());
            assertEquals(10000L, Tensor.fromArray(new int[] {100, 100}, DType.S8).to(e).product().item());
            assertEquals(Long.MIN_VALUE, Tensor.of(Long.MAX_VALUE, 1L).to(e).sum().item());
            // u32 sums stay u32: 2^32 - 1 + 2 wraps to 1
            assertEquals(1L, Tensor.fromArray(new long[] {0xFFFF_FFFFL, 2}, DType.U32).to(e).sum().item());
        }
    }

    @Test
    void u64ComparesUnsignedAndSumsToS64() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor x = Tensor.fromArray(new long[] {5, -1L, Long.MIN_VALUE, 7}, DType.U64).to(e);
            assertEquals(-1L, x.max().item(), "2^64-1 is the largest u64");
            assertEquals(5L, x.min().item());
            Tensor s = x.sum();
            assertEquals(DType.S64, s.dtype());
            assertEquals(5L - 1L + Long.MIN_VALUE + 7L, s.item());
            Tensor u32 = Tensor.fromArray(new long[] {0xFFFF_FFF0L, 3}, DType.U32).to(e);
            assertEquals(0xFFFF_FFF0L, u32.max().item());
            assertEquals(3L, u32.min().item());
        }
    }

    @Test
    void maxAndMinPropagateNaN() {
        for (Engine e : ReductionEngines.ALL) {
            for (DType t : new DType[] {DType.F16, DType.BF16, DType.F32, DType.F64}) {
                Tensor a = Tensor.fromArray(new double[] {-INF, NAN, 1}, t).to(e);
                assertTrue(Double.isNaN(a.max().toDoubleArray()[0]), t + " " + e);
                assertTrue(Double.isNaN(a.min().toDoubleArray()[0]), t + " " + e);
                Tensor b = Tensor.fromArray(new double[] {-INF, -INF, 1}, t).to(e);
                assertEquals(1.0, b.max().toDoubleArray()[0]);
                assertEquals(-INF, b.min().toDoubleArray()[0]);
                Tensor rows = Tensor.fromArray(new double[][] {{1, NAN, 3}, {4, 5, 6}}, t).to(e);
                double[] m = rows.max(new int[] {1}).toDoubleArray();
                assertTrue(Double.isNaN(m[0]));
                assertEquals(6.0, m[1]);
            }
        }
    }

    @Test
    void emptyReductionsGiveIdentities() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor f = Tensor.zeros(Shape.of(0, 3), DType.F32).to(e);
            assertArrayEquals(new double[] {0, 0, 0}, f.sum(new int[] {0}).toDoubleArray());
            assertArrayEquals(new double[] {1, 1, 1}, f.product(new int[] {0}).toDoubleArray());
            assertArrayEquals(new double[] {-INF, -INF, -INF}, f.max(new int[] {0}).toDoubleArray());
            assertArrayEquals(new double[] {INF, INF, INF}, f.min(new int[] {0}).toDoubleArray());
            assertArrayEquals(new boolean[] {true, true, true}, f.all(new int[] {0}).toBooleanArray());
            assertArrayEquals(new boolean[] {false, false, false}, f.any(new int[] {0}).toBooleanArray());
            assertEquals(Shape.of(0), f.sum(new int[] {1}).shape());
            assertEquals(Shape.of(0, 1), f.sum(new int[] {1}, true).shape());
            assertEquals(0.0, f.sum().item());
            assertEquals(Shape.of(1, 1), f.max(null, true).shape());
            Tensor s = Tensor.zeros(Shape.of(0), DType.S32).to(e);
            assertEquals((long) Integer.MIN_VALUE, s.max().item());
            assertEquals((long) Integer.MAX_VALUE, s.min().item());
            Tensor u = Tensor.zeros(Shape.of(2, 0), DType.U8).to(e);
            assertArrayEquals(new long[] {0, 0}, u.max(new int[] {1}).toLongArray());
            assertArrayEquals(new long[] {255, 255}, u.min(new int[] {1}).toLongArray());
            Tensor u64 = Tensor.zeros(Shape.of(0), DType.U64).to(e);
            assertEquals(-1L, u64.min().item());
            assertEquals(1L, Tensor.zeros(Shape.of(0), DType.S8).to(e).product().item());
        }
    }

    @Test
    void allAndAnyTreatNonZeroAndNaNAsTrue() {
        for (Engine e : ReductionEngines.ALL) {
            Tensor x = Tensor.of(new float[][] {{1, Float.NaN, -0.5f}, {0, -0f, 2}}).to(e);
            assertArrayEquals(new boolean[] {true, false}, x.all(new int[] {1}).toBooleanArray());
            assertArrayEquals(new boolean[] {true, true}, x.any(new int[] {1}).toBooleanArray());
            assertArrayEquals(new boolean[] {false, false, true}, x.all(new int[] {0}).toBooleanArray());
            assertArrayEquals(new boolean[] {false}, Tensor.of(new float[][] {{0, -0f}}).to(e).any(new int[] {-1}).toBooleanArray());
            Tensor ints = Tensor.of(new int[][] {{0, 3}, {4, 5}}).to(e);
            assertEquals(0L, ints.all().item());
            assertEquals(1L, ints.any().item());
            assertEquals(Shape.of(2, 1), ints.all(new int[] {1}, true).shape());
        }
    }

    @Test
    void halfPrecisionSumsAccumulateInF32AndRoundOnce() {
        for (Engine e : ReductionEngines.ALL) {
            // in f16 arithmetic 2048 + 1 rounds back to 2048 each time; in f32 the total is 2050, exact in f16
            Tensor h = Tensor.fromArray(new float[] {2048, 1, 1}, DType.F16).to(e);
            Tensor s = h.sum();
            assertEquals(DType.F16, s.dtype());
            assertEquals(2050.0, s.item());
            Tensor b = Tensor.fromArray(new float[] {256, 1, 1}, DType.BF16).to(e);
            assertEquals(258.0, b.sum().item());
        }
    }

    @Test
    void signedZerosAndInfinities() {
        for (Engine e : ReductionEngines.ALL) {
            assertEquals(0.0, Tensor.of(-0f, 0f).to(e).max().item());
            assertEquals(INF, Tensor.of(1f, Float.POSITIVE_INFINITY).to(e).sum().item());
            assertTrue(Double.isNaN((Double) Tensor.of(Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY).to(e).sum().item()));
        }
    }

    @Test
    void badAxesNameTheOpAndShape() {
        Tensor t = Tensor.of(new int[][] {{1, 2}, {3, 4}});
        JBurnException e = assertThrows(JBurnException.class, () -> t.sum(new int[] {2}));
        assertEquals("sum", e.op());
        assertTrue(e.reason().contains("[2, 2]"), e.reason());
        assertEquals("max", assertThrows(JBurnException.class, () -> t.max(new int[] {-3})).op());
        JBurnException dup = assertThrows(JBurnException.class, () -> t.product(new int[] {0, -2}));
        assertEquals("product", dup.op());
        assertTrue(dup.reason().contains("unique"), dup.reason());
        assertEquals("any", assertThrows(JBurnException.class, () -> Tensor.scalar(1).any(new int[] {0})).op());
    }
}
