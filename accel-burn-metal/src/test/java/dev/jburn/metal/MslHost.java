package dev.jburn.metal;

import dev.jburn.Engine;
import dev.jburn.spi.Backend;

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
import java.util.concurrent.CompletableFuture;

/**
 * The generated MSL, compiled as C++ by clang++ against the {@code metal_stdlib} shim and run on the
 * CPU: every kernel of {@link MslKernels} over its whole grid (reductions as groups of 256 fibers
 * that meet at every barrier, so the threadgroup tree runs as on the GPU), on edge-case inputs, against the
 * cpu engine. Integer, cast, comparison, select and movement results must match bit for bit;
 * transcendental results within a tolerance, since the host libm stands in for Apple's. The element
 * past the count (and the group past it) must stay unwritten. {@link MslHostRunTest} runs it.
 */
final class MslHost {
    private MslHost() {}

    /**
     * Builds {@code cases} with clang++ and runs them; returns the number of mismatches, each printed. The
     * kernels are split into one translation unit per core, compiled at once (compiling is most of the time).
     */
    static int check(List<MslCase> cases) throws Exception {
        Path work = Files.createTempDirectory("jburn-msl-run");
        try {
            Path shim = Clang.shimDir(work);
            int parts = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), Math.min(4, cases.size())));
            List<List<MslCase>> chunks = new ArrayList<>();
            List<CompletableFuture<Path>> libs = new ArrayList<>();
            long t0 = System.nanoTime();
            for (int p = 0; p < parts; p++) {
                List<MslCase> chunk = cases.subList(p * cases.size() / parts, (p + 1) * cases.size() / parts);
                chunks.add(chunk);
                int part = p;
                libs.add(CompletableFuture.supplyAsync(() -> build(chunk, shim, work.resolve("part" + part))));
            }
            List<Path> built = new ArrayList<>();
            for (CompletableFuture<Path> f : libs) built.add(f.join());
            double compile = (System.nanoTime() - t0) * 1e-9;
            t0 = System.nanoTime();
            int mismatches = 0;
            for (int p = 0; p < parts; p++) mismatches += run(chunks.get(p), built.get(p));
            System.out.printf("MSL on the CPU: %d kernels built in %.1f s (%d units at once) and run in %.1f s, %d mismatches%n",
                    cases.size(), compile, parts, (System.nanoTime() - t0) * 1e-9, mismatches);
            return mismatches;
        } finally {
            Clang.delete(work);
        }
    }

    /** One translation unit of {@code cases} with their drivers, built into a shared library in {@code dir}. */
    private static Path build(List<MslCase> cases, Path shim, Path dir) {
        try {
            Files.createDirectories(dir);
            MslUnit unit = new MslUnit(true);
            for (MslCase c : cases) unit.add(c.label(), c, true);
            Path src = dir.resolve("kernels.metal.cpp"), lib = dir.resolve("libmslkernels.so");
            Files.writeString(src, unit.text);
            // -O0: a third of -O1's compile time; x86-64 float arithmetic is IEEE either way (and nothing contracts to fma).
            Clang.Result r = Clang.run(shim, src, "-O0", "-ffp-contract=off", "-fPIC", "-shared", "-w", "-o", lib.toString());
            if (!r.ok()) throw new AssertionError("clang++ could not build the kernels:\n" + String.join("\n", unit.errors(r.log())));
            return lib;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int run(List<MslCase> cases, Path lib) {
        Backend cpu = Engine.select("cpu").backend();
        Random rnd = new Random(18);
        int mismatches = 0;
        try (Arena arena = Arena.ofShared()) {
            SymbolLookup lookup = SymbolLookup.libraryLookup(lib, arena);
            FunctionDescriptor fd = FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT);
            for (int i = 0; i < cases.size(); i++) {
                MslCase c = cases.get(i);
                MslCase.Inputs in = c.inputs(cpu, arena, rnd);
                MemorySegment out = c.output(arena);
                MemorySegment pointers = arena.allocate(ValueLayout.ADDRESS, in.segments().size() + 1);
                for (int k = 0; k < in.segments().size(); k++) pointers.setAtIndex(ValueLayout.ADDRESS, k, in.segments().get(k));
                pointers.setAtIndex(ValueLayout.ADDRESS, in.segments().size(), out);
                MethodHandle h = Linker.nativeLinker().downcallHandle(lookup.find("run_" + i).orElseThrow(), fd);
                try {
                    h.invokeExact(pointers, (int) c.count(), (int) c.groups() + (c.grouped() ? 1 : 0));
                } catch (Throwable e) {
                    throw new IllegalStateException(c.label(), e);
                }
                String bad = c.verify(cpu, in, out, arena);
                if (bad != null) {
                    mismatches++;
                    System.out.println("MISMATCH " + c.label() + ": " + bad);
                }
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
}
