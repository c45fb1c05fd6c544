package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.spi.Backend;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.HostElements;
import dev.jburn.spi.Operand;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The generated MSL, compiled as C++ by clang++ against the {@code metal_stdlib} shim and run on the
 * CPU: every kernel of {@link MslKernels} over its whole grid (reductions as groups of 256 fibers
 * that meet at every barrier, so the threadgroup tree runs as on the GPU), on edge-case inputs, against the
 * cpu engine. Integer, cast, comparison, select and movement results must match bit for bit;
 * transcendental results within a tolerance, since the host libm stands in for Apple's. The element
 * past the count (and the group past it) must stay unwritten. {@link MslHostRunTest} runs it.
 */
final class MslHost {
    private static final byte SENTINEL = (byte) 0xA5;

    private MslHost() {}

    /** Builds {@code cases} with clang++ and runs them; returns the number of mismatches, each printed. */
    static int check(List<MslCase> cases) throws Exception {
        Path work = Files.createTempDirectory("jburn-msl-run");
        try {
            MslUnit unit = new MslUnit(true);
            for (MslCase c : cases) unit.add(c.label(), c, true);
            Path src = work.resolve("kernels.metal.cpp"), lib = work.resolve("libmslkernels.so");
            Files.writeString(src, unit.text);
            long t0 = System.nanoTime();
            // -O0: a third of -O1's compile time; x86-64 float arithmetic is IEEE either way (and nothing contracts to fma).
            Clang.Result r = Clang.run(Clang.shimDir(work), src, "-O0", "-ffp-contract=off", "-fPIC", "-shared", "-w",
                    "-o", lib.toString());
            if (!r.ok()) throw new AssertionError("clang++ could not build the kernels:\n" + String.join("\n", unit.errors(r.log())));
            double compile = (System.nanoTime() - t0) * 1e-9;
            t0 = System.nanoTime();
            int mismatches = run(cases, lib, work);
            System.out.printf("MSL on the CPU: %d kernels built in %.1f s and run in %.1f s, %d mismatches%n",
                    cases.size(), compile, (System.nanoTime() - t0) * 1e-9, mismatches);
            return mismatches;
        } finally {
            Clang.delete(work);
        }
    }

    private static int run(List<MslCase> cases, Path lib, Path work) {
        Backend cpu = Engine.select("cpu").backend();
        Random rnd = new Random(18);
        int mismatches = 0;
        try (Arena arena = Arena.ofShared()) {
            SymbolLookup lookup = SymbolLookup.libraryLookup(lib, arena);
            FunctionDescriptor fd = FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT);
            for (int i = 0; i < cases.size(); i++) {
                MslCase c = cases.get(i);
                int inputs = c.inShapes().size();
                MemorySegment pointers = arena.allocate(ValueLayout.ADDRESS, inputs + 1);
                List<Operand> operands = new ArrayList<>();
                for (int k = 0; k < inputs; k++) {
                    DType t = c.inType(k);
                    Shape s = c.inShapes().get(k);
                    MemorySegment m = k == c.pinned() ? pinned(arena, t, c.pinValue())
                            : c.tied() ? MslValues.tied(arena, t, s.size(), rnd) : MslValues.edges(arena, t, s.size(), rnd);
                    pointers.setAtIndex(ValueLayout.ADDRESS, k, m);
                    operands.add(new Operand(cpu.upload(m), t, s));
                }
                DType ot = c.source().outType();
                MemorySegment out = arena.allocate((c.outCount() + 1) * ot.byteSize(), 16).fill(SENTINEL);
                pointers.setAtIndex(ValueLayout.ADDRESS, inputs, out);
                MethodHandle h = Linker.nativeLinker().downcallHandle(lookup.find("run_" + i).orElseThrow(), fd);
                try {
                    h.invokeExact(pointers, (int) c.count(), (int) c.groups() + (c.grouped() ? 1 : 0));
                } catch (Throwable e) {
                    throw new IllegalStateException(c.label(), e);
                }
                Buffer expected = c.oracle().apply(cpu, operands);
                MemorySegment exp = arena.allocate(expected.byteSize(), 16);
                cpu.download(expected, 0, exp);
                String bad = MslValues.firstDifference(ot, out, exp, c.outCount(), c.approx());
                for (long b = c.outCount() * ot.byteSize(); bad == null && b < out.byteSize(); b++) {
                    if (out.get(ValueLayout.JAVA_BYTE, b) != SENTINEL) bad = "wrote past its " + c.outCount() + " elements";
                }
                if (bad != null) {
                    mismatches++;
                    System.out.println("MISMATCH " + c.label() + ": " + bad);
                }
                expected.release();
                for (Operand o : operands) o.buffer().release();
            }
            try {
                int divergent = (int) Linker.nativeLinker().downcallHandle(lookup.find("jb_divergent_barrier").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT)).invokeExact();
                if (divergent != 0) {
                    System.out.println("MISMATCH: a reduction's threads did not all reach the same barriers");
                    mismatches++;
                }
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }
        return mismatches;
    }

    private static MemorySegment pinned(Arena a, DType t, long v) {
        MemorySegment m = a.allocate(t.byteSize(), 16);
        HostElements.setLong(m, t, 0, v);
        return m;
    }
}
