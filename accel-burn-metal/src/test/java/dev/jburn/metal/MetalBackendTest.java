package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link MetalBackend} against {@link FakeObjc}: the Objective-C calls an eager op makes (buffers,
 * one pipeline compiled from MSL and reused, the encoder's bindings, commit and wait inside one
 * autorelease pool, every object released), a compiler error reaching the JBurnException, what the
 * dialect cannot express running on the cpu engine (counted), and validation before any native
 * call. The fake runs no kernel (a dispatch does nothing), so results are checked only where the
 * cpu engine computed them; a Mac runs the kernels in {@code MetalOnMacTest}.
 */
class MetalBackendTest {
    private static Operand f32(MetalBackend b, float... v) {
        return new Operand(b.upload(MemorySegment.ofArray(v)), DType.F32, Shape.of(v.length));
    }

    private static List<String> sequence(FakeObjc fake, int from) {
        return fake.calls.subList(from, fake.calls.size()).stream().map(c -> c.selector() == null ? c.symbol() : c.selector()).toList();
    }

    private static long count(FakeObjc fake, int from, String selector) {
        return sequence(fake, from).stream().filter(selector::equals).count();
    }

    /** What one element-wise dispatch sends, after its output buffer and pipeline exist. */
    private static final List<String> DISPATCH = List.of("objc_autoreleasePoolPush", "commandBuffer", "computeCommandEncoder",
            "setComputePipelineState:", "setBuffer:offset:atIndex:", "setBuffer:offset:atIndex:", "setBuffer:offset:atIndex:",
            "setBytes:length:atIndex:", "dispatchThreadgroups:threadsPerThreadgroup:", "endEncoding", "commit", "waitUntilCompleted",
            "status", "objc_autoreleasePoolPop");

    @Test
    void anEagerAddCompilesOnceDispatchesInOnePoolAndReleasesEverything() {
        FakeObjc fake = new FakeObjc();
        try (MetalBackend b = new MetalBackend(new Objc(fake))) {
            Operand x = f32(b, 1, 2, 3, 4, 5), y = f32(b, 6, 7, 8, 9, 10);
            int first = fake.calls.size();
            Buffer r1 = b.binary(BinaryOp.ADD, x, y, Shape.of(5), DType.F32);
            List<String> seq = sequence(fake, first);
            // (the classes were looked up when the engine started, compiling its bfloat probe)
            assertEquals(List.of("alloc", "init", "objc_autoreleasePoolPush",
                    "setFastMathEnabled:", "stringWithUTF8String:", "newLibraryWithSource:options:error:",
                    "stringWithUTF8String:", "newFunctionWithName:", "newComputePipelineStateWithFunction:error:",
                    "objc_autoreleasePoolPop", "release", "release", "release", "maxTotalThreadsPerThreadgroup",
                    "newBufferWithLength:options:", "contents"), seq.subList(0, seq.size() - DISPATCH.size()),
                    "the pipeline compiled from MSL (its function, library and options released), its thread limit, then the output buffer");
            assertEquals(DISPATCH, seq.subList(seq.size() - DISPATCH.size(), seq.size()));
            String msl = fake.calls.subList(first, fake.calls.size()).stream().filter(c -> "stringWithUTF8String:".equals(c.selector())).map(c -> (String) c.args().getFirst())
                    .filter(s -> s.contains("kernel void")).findFirst()
                    .orElseThrow(() -> new AssertionError("no MSL source sent"));
            assertTrue(msl.contains("#include <metal_stdlib>") && msl.contains("device const float* in0"), msl);

            List<FakeObjc.Call> sent = fake.calls.subList(fake.calls.size() - DISPATCH.size(), fake.calls.size());
            assertEquals(List.of(((MetalBuffer) x.buffer()).shared().buffer(), 0L, 0L), sent.get(4).args(), "x at index 0");
            assertEquals(List.of(((MetalBuffer) y.buffer()).shared().buffer(), 0L, 1L), sent.get(5).args(), "y at index 1");
            assertEquals(List.of(((MetalBuffer) r1).shared().buffer(), 0L, 2L), sent.get(6).args(), "the result at index 2");
            assertEquals(List.of(5, 4L, 3L), sent.get(7).args(), "n = 5 as a constant uint after the buffers");
            assertEquals(List.of(1L, 256L), sent.get(8).args(), "one threadgroup of 256 threads");

            int second = fake.calls.size();
            Buffer r2 = b.binary(BinaryOp.ADD, x, y, Shape.of(5), DType.F32);
            assertEquals(List.of(), sequence(fake, second).subList(0, sequence(fake, second).size() - DISPATCH.size()).stream()
                    .filter(sel -> !sel.startsWith("newBuffer") && !sel.equals("contents")).toList(),
                    "the pipeline is reused: nothing compiled, its thread limit not asked again");
            List<String> again = sequence(fake, second);
            assertEquals(DISPATCH, again.subList(again.size() - DISPATCH.size(), again.size()));
            for (Buffer buf : List.of(r1, r2, x.buffer(), y.buffer())) buf.release();
            assertEquals(Map.of(), b.fallbackCounts());
        }
        assertEquals(List.of(), fake.leaks(), "every buffer, pipeline, the queue and the device released on close");
        assertEquals(0, fake.openPools());
    }

    @Test
    void theGpuFamilyAndABfloatProbeDecideSimdgroupMatricesAndBfloat() {
        FakeObjc fake = new FakeObjc();
        try (MetalBackend b = new MetalBackend(new Objc(fake))) {
            assertEquals(new MetalFeatures(true, true), b.features(), "an M1-class GPU whose compiler speaks MSL 3.1");
            assertTrue(fake.calls.stream().anyMatch(c -> "stringWithUTF8String:".equals(c.selector()) && c.args().getFirst().toString().contains("bfloat* out")));
        }
        fake = new FakeObjc();
        fake.compileError = "unknown type name 'bfloat'"; // a compiler before MSL 3.1
        try (MetalBackend b = new MetalBackend(new Objc(fake))) {
            assertEquals(new MetalFeatures(true, false), b.features());
        }
        assertEquals(List.of(), fake.leaks());
        fake = new FakeObjc();
        fake.families.clear(); // a GPU of an older family (or an Intel Mac's)
        int from = fake.calls.size();
        try (MetalBackend b = new MetalBackend(new Objc(fake))) {
            assertEquals(MetalFeatures.NONE, b.features());
            assertEquals(0, count(fake, from, "newLibraryWithSource:options:error:"), "no probe without a family that has bfloat");
        }
    }

    @Test
    void aCompileErrorReachesTheJBurnExceptionWithMetalsLog() {
        FakeObjc fake = new FakeObjc();
        fake.compileError = "program_source:9:3: error: unknown type name 'flaot'";
        try (MetalBackend b = new MetalBackend(new Objc(fake))) {
            Operand x = f32(b, 1, 2);
            JBurnException e = assertThrows(JBurnException.class, () -> b.unary(UnaryOp.EXP, x, DType.F32));
            assertTrue(e.getMessage().contains("unknown type name 'flaot'") && e.getMessage().contains("compiling MSL"), e.getMessage());
            assertEquals(0, fake.calls.stream().filter(c -> "commit".equals(c.selector())).count(), "nothing submitted");
            assertEquals(Map.of(), b.fallbackCounts(), "a compiler error is reported, not hidden by a fallback");
            x.buffer().release();
        }
        assertEquals(List.of(), fake.leaks());
        assertEquals(0, fake.openPools());
    }

    @Test
    void whatMslCannotExpressRunsOnTheCpuEngineCounted() {
        FakeObjc fake = new FakeObjc();
        try (MetalBackend b = new MetalBackend(new Objc(fake))) {
            Operand x = new Operand(b.upload(MemorySegment.ofArray(new double[] {1.5, -2, 4})), DType.F64, Shape.of(3));
            int from = fake.calls.size();
            Buffer sum = b.binary(BinaryOp.ADD, x, x, Shape.of(3), DType.F64);
            Buffer e = b.unary(UnaryOp.EXPM1, f32(b, 0f), DType.F32);
            assertEquals(0, count(fake, from, "newLibraryWithSource:options:error:"), "no kernel for what MSL cannot express");
            assertEquals(0, count(fake, from, "commit"));
            MemorySegment out = MemorySegment.ofArray(new double[3]);
            b.download(sum, 0, out);
            assertArrayEquals(new double[] {3, -4, 8}, out.toArray(ValueLayout.JAVA_DOUBLE), "computed by the cpu engine, copied back");
            assertEquals(Map.of("add:f64", 1L, "expm1:f32", 1L), b.fallbackCounts());
            assertTrue(!b.capabilities().supports(BinaryOp.ADD, DType.F64) && !b.capabilities().supports(UnaryOp.EXPM1, DType.F32)
                    && b.capabilities().supports(BinaryOp.ADD, DType.F32) && b.capabilities().supports(ReduceOp.SUM, DType.F16));
            for (Buffer buf : List.of(sum, e, x.buffer())) buf.release();
        }
        assertEquals(List.of(), fake.leaks());
    }

    @Test
    void aPipelineAllowedFewerThreadsThanAGroupRunsOnTheCpuEngine() {
        FakeObjc fake = new FakeObjc();
        fake.maxThreads = 128; // Metal lowers the limit for kernels that use many registers
        try (MetalBackend b = new MetalBackend(new Objc(fake))) {
            Operand x = f32(b, 1, 2, 3);
            int from = fake.calls.size();
            Buffer r = b.binary(BinaryOp.MULTIPLY, x, x, Shape.of(3), DType.F32);
            assertEquals(0, count(fake, from, "commit"), "no dispatch with groups the pipeline does not allow");
            MemorySegment out = MemorySegment.ofArray(new float[3]);
            b.download(r, 0, out);
            assertArrayEquals(new float[] {1, 4, 9}, out.toArray(ValueLayout.JAVA_FLOAT));
            assertEquals(Map.of("multiply:f32", 1L), b.fallbackCounts());
            r.release();
            x.buffer().release();
        }
        assertEquals(List.of(), fake.leaks());
    }

    @Test
    void aClosedBackendRefusesWorkAndHasReleasedEverything() {
        FakeObjc fake = new FakeObjc();
        MetalBackend b = new MetalBackend(new Objc(fake));
        Operand x = f32(b, 1, 2);
        b.close();
        b.close();
        assertEquals(List.of(), fake.leaks(), "a buffer still referenced is released with the device");
        for (Runnable r : List.<Runnable>of(() -> b.upload(MemorySegment.ofArray(new float[1])), () -> b.allocate(4),
                () -> b.download(x.buffer(), 0, MemorySegment.ofArray(new float[2])), () -> b.unary(UnaryOp.EXP, x, DType.F32))) {
            JBurnException e = assertThrows(JBurnException.class, r::run);
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
        }
        x.buffer().release(); // after close: returns the lease to a cache nobody drains, touching nothing native
        assertEquals(List.of(), fake.leaks());
    }

    @Test
    void invalidOperandsFailBeforeAnyNativeCall() {
        FakeObjc fake = new FakeObjc();
        try (MetalBackend b = new MetalBackend(new Objc(fake))) {
            Operand x = f32(b, 1, 2, 3, 4, 5, 6);
            Operand cpu = new Operand(Engine.select("cpu").backend().upload(MemorySegment.ofArray(new float[] {1})), DType.F32, Shape.of(1));
            int from = fake.calls.size();
            Map<String, Runnable> bad = new java.util.LinkedHashMap<>();
            bad.put("another engine", () -> b.unary(UnaryOp.EXP, cpu, DType.F32));
            bad.put("f32[7] needs 28", () -> b.unary(UnaryOp.EXP, new Operand(x.buffer(), DType.F32, Shape.of(7)), DType.F32));
            bad.put("one dtype", () -> b.binary(BinaryOp.ADD, x, new Operand(x.buffer(), DType.S32, Shape.of(6)), Shape.of(6), DType.F32));
            bad.put("does not broadcast to [4]", () -> b.binary(BinaryOp.ADD, x, x, Shape.of(4), DType.F32));
            bad.put("not a permutation", () -> b.transpose(new Operand(x.buffer(), DType.F32, Shape.of(2, 3)), new int[] {0, 0}));
            bad.put("sorted, unique", () -> b.reduce(ReduceOp.SUM, new Operand(x.buffer(), DType.F32, Shape.of(2, 3)), new int[] {1, 0}, DType.F32));
            bad.put("gives pred", () -> b.unary(UnaryOp.IS_NAN, x, DType.F32));
            bad.put("predicate is pred", () -> b.select(x, x, x, Shape.of(6)));
            bad.put("contracted sizes differ", () -> b.dot(new Operand(x.buffer(), DType.F32, Shape.of(2, 3)), new int[] {1}, new int[0],
                    new Operand(x.buffer(), DType.F32, Shape.of(2, 3)), new int[] {0}, new int[0], DType.F32));
            Operand m = new Operand(x.buffer(), DType.F32, Shape.of(2, 3));
            bad.put("do not select a window", () -> b.slice(m, new int[] {1, 2}, new int[] {1, 2}, new int[] {1, 1}));
            bad.put("pad value is one element", () -> b.pad(m, x, new int[] {0, 0}, new int[] {1, 1}, new int[] {0, 0}));
            bad.put("cropped below 0", () -> b.pad(m, new Operand(x.buffer(), DType.F32, Shape.of()), new int[] {-2, 0}, new int[] {-1, 0}, new int[] {0, 0}));
            bad.put("does not fit", () -> b.putSlice(m, new int[] {1, 0}, m));
            bad.put("differ off axis 0", () -> b.concatenate(List.of(m, new Operand(x.buffer(), DType.F32, Shape.of(3, 2))), 0));
            bad.put("sorted, unique", () -> b.reverse(m, new int[] {1, 1}));
            bad.put("axis 2 of rank 2", () -> b.iota(Shape.of(2, 3), DType.F32, 2));
            Operand ix = new Operand(x.buffer(), DType.S32, Shape.of(3, 2));
            bad.put("indices are integers", () -> b.gather(m, new Operand(x.buffer(), DType.F32, Shape.of(3, 1)), new int[] {0}));
            bad.put("one column per axis", () -> b.gather(m, ix, new int[] {0}));
            bad.put("[3, 3] expected", () -> b.indexedUpdate(m, new Operand(x.buffer(), DType.S32, Shape.of(3, 1)), m, new int[] {0}, true));
            bad.put("axis 3 of rank 2", () -> b.argReduce(ReduceOp.ARGMAX, m, 3, false, DType.S32));
            for (var c : bad.entrySet()) {
                JBurnException e = assertThrows(JBurnException.class, c.getValue()::run, c.getKey());
                assertTrue(e.getMessage().contains(c.getKey()), c.getKey() + ": " + e.getMessage());
            }
            assertEquals(List.of(), sequence(fake, from), "no Objective-C call for an invalid operand");
            assertEquals(Map.of(), b.fallbackCounts());
            x.buffer().release();
            cpu.buffer().release();
        }
        assertEquals(List.of(), fake.leaks());
    }

    @Test
    void reductionsTransposesAndPlainMatrixProductsStayOnTheDevice() {
        FakeObjc fake = new FakeObjc();
        fake.families.remove(MetalFeatures.APPLE7); // no simdgroup matrices: a batched dot has no kernel
        try (MetalBackend b = new MetalBackend(new Objc(fake))) {
            Operand m = new Operand(f32(b, 1, 2, 3, 4, 5, 6).buffer(), DType.F32, Shape.of(2, 3));
            int from = fake.calls.size();
            Buffer s = b.reduce(ReduceOp.SUM, m, new int[] {1}, DType.F32);
            FakeObjc.Call groups = fake.calls.stream().filter(c -> "dispatchThreadgroups:threadsPerThreadgroup:".equals(c.selector()))
                    .reduce((p, q) -> q).orElseThrow();
            assertEquals(List.of(2L, 256L), groups.args(), "a threadgroup of 256 per output");
            Buffer t = b.transpose(m, new int[] {1, 0});
            Buffer p = b.dot(m, new int[] {1}, new int[0], new Operand(t, DType.F32, Shape.of(3, 2)), new int[] {0}, new int[0], DType.F32);
            assertEquals(2, count(fake, from, "newLibraryWithSource:options:error:"), "the reduction and the transpose");
            assertEquals(1, count(fake, from, "encodeToCommandBuffer:leftMatrix:rightMatrix:resultMatrix:"), "the product through MPS");
            Buffer batched = b.dot(new Operand(m.buffer(), DType.F32, Shape.of(1, 2, 3)), new int[] {2}, new int[] {0},
                    new Operand(t, DType.F32, Shape.of(1, 3, 2)), new int[] {1}, new int[] {0}, DType.F32);
            assertEquals(Map.of("dot:f32", 1L), b.fallbackCounts(), "a batched dot is no plain matrix product, and this GPU has no simdgroup matrices: the cpu engine runs it");
            for (Buffer buf : List.of(s, t, p, batched, m.buffer())) buf.release();
        }
        assertEquals(List.of(), fake.leaks());
        assertEquals(0, fake.openPools());
    }
}
