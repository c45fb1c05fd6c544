package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.ElementwiseKernel;
import dev.jburn.kernels.Emitter;
import dev.jburn.kernels.KernelSource;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.Operand;
import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Metal bridge's call sequence against {@link FakeObjc}: the selectors sent and their exact
 * argument layouts, autorelease pools around each submission, NSError turned into JBurnException,
 * and every object the bridge creates released. This is what makes a Mac run the first real run
 * rather than the first test; it cannot show that Metal behaves as the fake does.
 */
class MetalDeviceTest {
    private static final KernelSource EXP = Emitter.emit(ElementwiseKernel.unary(UnaryOp.EXP, DType.F32, DType.F32, Shape.of(16)),
            Dialect.METAL, MslKernels.APPLE);

    /** Every selector's descriptor has receiver, selector and one argument per colon, and nothing variadic can be bound. */
    @Test
    void theSelectorTableMatchesEachSelectorsArity() {
        for (Sel s : Sel.values()) {
            long colons = s.selector.chars().filter(c -> c == ':').count();
            List<MemoryLayout> args = s.descriptor.argumentLayouts();
            assertEquals(colons + 2, args.size(), s.selector);
            assertEquals(ValueLayout.ADDRESS, args.get(0), s.selector + ": receiver");
            assertEquals(ValueLayout.ADDRESS, args.get(1), s.selector + ": selector");
        }
    }

    /**
     * A whole engine's work (its probes, a pipeline, element-wise and GEMM dispatches) binds {@code objc_msgSend} once per
     * distinct C signature, each handle with exactly its selector's descriptor; {@link Natives} takes no linker options,
     * so no handle can be variadic.
     */
    @Test
    void objcMsgSendIsBoundOncePerExactSignature() {
        FakeObjc fake = new FakeObjc();
        try (MetalBackend b = new MetalBackend(new Objc(fake))) {
            Operand x = new Operand(b.upload(MemorySegment.ofArray(new float[] {1, 2, 3, 4})), DType.F32, Shape.of(2, 2));
            b.unary(UnaryOp.EXP, x, DType.F32).release();
            b.dot(x, new int[] {1}, new int[0], x, new int[] {0}, new int[0], DType.F32).release();
        }
        List<FunctionDescriptor> sends = fake.bindings.stream().filter(c -> c.symbol().equals("objc_msgSend"))
                .map(FakeObjc.Binding::descriptor).toList();
        assertEquals(sends.stream().distinct().toList(), sends, "a signature bound twice");
        List<FunctionDescriptor> used = fake.calls.stream().filter(c -> c.selector() != null).map(FakeObjc.Call::descriptor)
                .distinct().toList();
        assertEquals(Set.copyOf(used), Set.copyOf(sends), "every handle bound was used, with its selector's descriptor");
        long selectors = fake.calls.stream().filter(c -> c.selector() != null).map(FakeObjc.Call::selector).distinct().count();
        assertTrue(sends.size() < selectors, sends.size() + " handles for " + selectors + " selectors: selectors sharing a signature share one");
        for (FakeObjc.Call c : fake.calls) {
            if (c.selector() != null) assertEquals(Arrays.stream(Sel.values()).filter(s -> s.selector.equals(c.selector()))
                    .findFirst().orElseThrow().descriptor, c.descriptor(), c.selector());
        }
    }

    @Test
    void openBuffersAndCloseReleaseEverythingCreated() {
        FakeObjc fake = new FakeObjc();
        try (MetalDevice gpu = MetalDevice.open(new Objc(fake))) {
            assertEquals("Fake Apple GPU", gpu.name());
            MetalDevice.SharedBuffer a = gpu.buffer(64), b = gpu.buffer(0);
            a.contents().set(ValueLayout.JAVA_FLOAT, 60, 2.5f);
            assertEquals(2.5f, a.contents().get(ValueLayout.JAVA_FLOAT, 60));
            assertEquals(64, a.contents().byteSize());
            assertEquals(0, b.contents().byteSize());
            gpu.free(b);
        }
        assertEquals(List.of("newCommandQueue", "name", "UTF8String", "newBufferWithLength:options:", "contents",
                "newBufferWithLength:options:", "contents", "release", "release", "release", "release"), fake.selectorsSent());
        FakeObjc.Call create = fake.calls.stream().filter(c -> c.selector() != null && c.selector().startsWith("newBuffer")).toList().get(1);
        assertEquals(List.of(1L, MetalDevice.STORAGE_SHARED), create.args(), "Metal refuses empty buffers: at least one byte, shared storage");
        assertEquals(List.of(), fake.leaks());
        assertEquals(0, fake.openPools());
    }

    @Test
    void pipelinesCompileOnceWithFastMathOffAndReleaseTheirParts() {
        FakeObjc fake = new FakeObjc();
        try (MetalDevice gpu = MetalDevice.open(new Objc(fake))) {
            var p = gpu.pipeline(EXP);
            assertEquals(p, gpu.pipeline(EXP), "cached by source");
            FakeObjc.Call fastMath = fake.calls.stream().filter(c -> "setFastMathEnabled:".equals(c.selector())).findFirst().orElseThrow();
            assertEquals(List.of(false), fastMath.args());
            FakeObjc.Call compile = fake.calls.stream().filter(c -> "newLibraryWithSource:options:error:".equals(c.selector())).findFirst().orElseThrow();
            assertEquals(Sel.NEW_LIBRARY.descriptor, compile.descriptor());
            assertEquals(1, fake.selectorsSent().stream().filter(s -> s.startsWith("newLibrary")).count());
            FakeObjc.Call name = fake.calls.stream().filter(c -> "stringWithUTF8String:".equals(c.selector())).toList().get(1);
            assertEquals("NSString", name.receiverClass());
        }
        assertEquals(List.of(), fake.leaks());
    }

    @Test
    void aCompileErrorBecomesAJBurnExceptionWithTheCompilersMessage() {
        FakeObjc fake = new FakeObjc();
        fake.compileError = "program_source:12:5: error: use of undeclared identifier 'expm1'";
        try (MetalDevice gpu = MetalDevice.open(new Objc(fake))) {
            JBurnException e = assertThrows(JBurnException.class, () -> gpu.pipeline(EXP));
            assertTrue(e.getMessage().contains("undeclared identifier 'expm1'") && e.getMessage().contains(EXP.entry()), e.getMessage());
        }
        assertEquals(List.of(), fake.leaks(), "the compile options and the error are released after a failure too");
        assertEquals(0, fake.openPools());
    }

    @Test
    void aDispatchEncodesInsideOnePoolAndWaits() {
        FakeObjc fake = new FakeObjc();
        try (MetalDevice gpu = MetalDevice.open(new Objc(fake))) {
            var in = gpu.buffer(64);
            var out = gpu.buffer(64);
            var p = gpu.pipeline(EXP);
            int from = fake.calls.size();
            gpu.dispatch("exp", p, List.of(in, out), 15, 1, 256);
            List<String> seq = fake.calls.subList(from, fake.calls.size()).stream()
                    .map(c -> c.selector() == null ? c.symbol() : c.selector()).toList();
            assertEquals(List.of("objc_autoreleasePoolPush", "commandBuffer", "computeCommandEncoder", "setComputePipelineState:",
                    "setBuffer:offset:atIndex:", "setBuffer:offset:atIndex:", "setBytes:length:atIndex:",
                    "dispatchThreadgroups:threadsPerThreadgroup:", "endEncoding", "commit", "waitUntilCompleted", "status",
                    "objc_autoreleasePoolPop"), seq);
            List<FakeObjc.Call> sent = fake.calls.subList(from, fake.calls.size());
            assertEquals(List.of(in.buffer(), 0L, 0L), sent.get(4).args(), "input at index 0");
            assertEquals(List.of(out.buffer(), 0L, 1L), sent.get(5).args(), "output at index 1");
            assertEquals(List.of(15, 4L, 2L), sent.get(6).args(), "n as a 4-byte constant after the buffers");
            assertEquals(List.of(1L, 256L), sent.get(7).args(), "groups, threads per group");
            assertEquals(Sel.DISPATCH_GROUPS.descriptor, sent.get(7).descriptor(), "MTLSize passed by value");
        }
        assertEquals(List.of(), fake.leaks());
    }

    @Test
    void aGpuErrorBecomesAJBurnExceptionNamingTheOp() {
        FakeObjc fake = new FakeObjc();
        fake.commandStatus = 5; // MTLCommandBufferStatusError
        try (MetalDevice gpu = MetalDevice.open(new Objc(fake))) {
            var p = gpu.pipeline(EXP);
            var b = gpu.buffer(4);
            JBurnException e = assertThrows(JBurnException.class, () -> gpu.dispatch("exp", p, List.of(b, b), 1, 1, 256));
            assertEquals("exp", e.op());
            assertTrue(e.getMessage().contains("status 5") && e.getMessage().contains("aborted"), e.getMessage());
        }
        assertEquals(List.of(), fake.leaks());
        assertEquals(0, fake.openPools());
    }

    @Test
    void aClosedDeviceRefusesWork() {
        FakeObjc fake = new FakeObjc();
        MetalDevice gpu = MetalDevice.open(new Objc(fake));
        gpu.close();
        gpu.close();
        JBurnException e = assertThrows(JBurnException.class, () -> gpu.buffer(4));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertEquals(List.of(), fake.leaks());
    }
}
