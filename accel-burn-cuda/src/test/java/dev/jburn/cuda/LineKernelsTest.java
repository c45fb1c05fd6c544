package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.op.CumulativeOp;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generated line kernels' text: right types and entries, one instance per variant (the kernel cache keys on it). */
class LineKernelsTest {
    @Test
    void sourcesAreKeptPerVariantAndTyped() {
        String a = LineKernels.argReduce(DType.BF16, DType.S64, true, false);
        assertSame(a, LineKernels.argReduce(DType.BF16, DType.S64, true, false));
        assertTrue(a.contains("const unsigned short* __restrict__ in") && a.contains("long long* __restrict__ out")
                && a.contains("jb_bf16(in[") && a.contains("c > 0"), a);
        assertTrue(LineKernels.argReduce(DType.S32, DType.S32, false, true).contains("c <= 0"));
        String s = LineKernels.scan(CumulativeOp.CUMULATIVE_SUM, DType.S8, true);
        assertTrue(s.contains("n - 1 - step") && s.contains("(u64)a + (u64)v") && s.contains("(signed char)a"), s);
        assertTrue(LineKernels.scan(CumulativeOp.CUMULATIVE_MAX, DType.F32, false).contains("__float_as_uint(a)"));
        assertTrue(LineKernels.scan(CumulativeOp.CUMULATIVE_MIN, DType.F64, false).contains("__double_as_longlong(a)"));
        assertTrue(LineKernels.iota(DType.F64).contains("double* __restrict__ out"));
        String sort = RankSort.source(DType.F32, true, null);
        assertTrue(sort.contains("~jb_fkey") && sort.contains("j < p") && sort.contains("out[start + rank * inner] = in["), sort);
        assertTrue(RankSort.source(DType.U64, false, DType.S32).contains("0x8000000000000000ull"));
        assertEquals(1, LineKernels.blocks(0));
        assertEquals(4, LineKernels.blocks(1000));
    }
}
