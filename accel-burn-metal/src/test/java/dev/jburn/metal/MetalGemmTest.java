package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link MetalGemm}'s MPS call sequence against {@link FakeObjc}: descriptors, the kernel's arguments, one submission, every object released. */
class MetalGemmTest {
    @Test
    void anF32GemmDescribesRowMajorMatricesAndEncodesOnce() {
        FakeObjc fake = new FakeObjc();
        try (MetalDevice gpu = MetalDevice.open(new Objc(fake))) {
            var a = gpu.buffer(6 * 4 * 4);
            var b = gpu.buffer(4 * 5 * 4);
            var c = gpu.buffer(6 * 5 * 4);
            int from = fake.calls.size();
            MetalGemm.multiply(gpu, a, b, c, 6, 5, 4, DType.F32);
            assertEquals(List.of(Natives.Library.MPS), fake.loaded);
            List<FakeObjc.Call> sent = fake.calls.subList(from, fake.calls.size());
            List<List<Object>> descriptors = sent.stream().filter(x -> "matrixDescriptorWithRows:columns:rowBytes:dataType:".equals(x.selector()))
                    .map(FakeObjc.Call::args).toList();
            assertEquals(List.of(List.of(6L, 4L, 16L, MetalGemm.MPS_FLOAT32), List.of(4L, 5L, 20L, MetalGemm.MPS_FLOAT32),
                    List.of(6L, 5L, 20L, MetalGemm.MPS_FLOAT32)), descriptors);
            FakeObjc.Call init = sent.stream().filter(x -> x.selector() != null && x.selector().startsWith("initWithDevice:")).findFirst().orElseThrow();
            assertEquals(List.of(false, false, 6L, 5L, 4L, 1.0, 0.0), init.args().subList(1, 8));
            assertEquals(Sel.INIT_MATMUL.descriptor, init.descriptor());
            assertEquals(1, sent.stream().filter(x -> "encodeToCommandBuffer:leftMatrix:rightMatrix:resultMatrix:".equals(x.selector())).count());
            assertEquals(1, sent.stream().filter(x -> "commit".equals(x.selector())).count());
        }
        assertEquals(List.of(), fake.leaks());
        assertEquals(0, fake.openPools());
    }

    @Test
    void whatMpsCannotMultiplyIsAJBurnExceptionNamingShapes() {
        FakeObjc fake = new FakeObjc();
        try (MetalDevice gpu = MetalDevice.open(new Objc(fake))) {
            var x = gpu.buffer(64);
            JBurnException wrongType = assertThrows(JBurnException.class, () -> MetalGemm.multiply(gpu, x, x, x, 2, 2, 2, DType.S32));
            assertEquals("dot", wrongType.op());
            assertTrue(wrongType.getMessage().contains("s32") && wrongType.getMessage().contains("A[2,2]"), wrongType.getMessage());
            JBurnException small = assertThrows(JBurnException.class, () -> MetalGemm.multiply(gpu, x, x, x, 8, 8, 8, DType.F16));
            assertTrue(small.getMessage().contains("A holds 64 bytes, the shapes need 128"), small.getMessage());
        }
        assertEquals(List.of(), fake.leaks());
    }
}
