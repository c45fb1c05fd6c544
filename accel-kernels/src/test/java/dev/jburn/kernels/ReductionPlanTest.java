package dev.jburn.kernels;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.ReduceOp;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which form the small CNN's reductions take (their kernels' results are checked on the host by the CUDA
 * engine's {@code HostKernelCheck} and on lavapipe by the Vulkan engine's {@code VulkanReductionPlanTest}).
 */
class ReductionPlanTest {
    private static ReductionPlan plan(ReduceOp op, DType t, Shape s, int... axes) {
        return ReductionPlan.of(ReductionKernel.of(op, t, s, axes, t), Dialect.CUDA, DeviceFeatures.ALL);
    }

    @Test
    void poolingWindowsFoldOneOutputPerThread() {
        // max pooling 2x2 as [o..., k...]: 802,816 outputs of 4 elements
        ReductionPlan p = plan(ReduceOp.REDUCE_MAX, DType.F32, Shape.of(128, 14, 14, 32, 2, 2), 4, 5);
        assertEquals(ReductionPlan.Form.THREAD, p.form());
        assertNull(p.finish());
    }

    @Test
    void batchNormStatisticsOverChannelsLastRunAsColumns() {
        ReductionPlan p = plan(ReduceOp.SUM, DType.F32, Shape.of(128, 28, 28, 32), 0, 1, 2);
        assertEquals(ReductionPlan.Form.COLUMNS, p.form());
        assertEquals(2048, p.parts());
        assertNotNull(p.finish());
        assertEquals(ReductionPlan.Form.BLOCK, p.finish().form()); // 32 rows of 2048 partials
        // integers are never split: their partials would need the accumulator's type
        assertEquals(ReductionPlan.Form.BLOCK, plan(ReduceOp.SUM, DType.S32, Shape.of(128, 28, 28, 32), 0, 1, 2).form());
    }

    @Test
    void aLongRowSplitsAcrossBlocks() {
        ReductionPlan p = plan(ReduceOp.SUM, DType.F32, Shape.of(1, 1 << 22), 1);
        assertEquals(ReductionPlan.Form.SPLIT, p.form());
        assertEquals(1024, p.parts());
        assertEquals(ReductionPlan.Form.BLOCK, p.finish().form());
    }

    @Test
    void moderateReductionsKeepABlockPerOutput() {
        assertEquals(ReductionPlan.Form.BLOCK, plan(ReduceOp.SUM, DType.F32, Shape.of(64, 1000), 1).form());
        assertEquals(ReductionPlan.Form.THREAD, plan(ReduceOp.SUM, DType.F32, Shape.of(128, 10), 1).form());
    }

    @Test
    void glslPlansHaveTheSameFormsWithAMainEntryPoint() {
        ReductionKernel k = ReductionKernel.of(ReduceOp.SUM, DType.F32, Shape.of(128, 28, 28, 32), new int[] {0, 1, 2}, DType.F32);
        ReductionPlan p = ReductionPlan.of(k, Dialect.GLSL, DeviceFeatures.ALL);
        assertEquals(ReductionPlan.Form.COLUMNS, p.form());
        assertEquals(ReductionPlan.Form.COLUMNS, ReductionPlan.form(k));
        assertEquals("main", p.main().entry());
        assertEquals("main", p.finish().main().entry());
        assertTrue(p.main().code().contains("layout(push_constant)"), p.main().code());
    }
}
