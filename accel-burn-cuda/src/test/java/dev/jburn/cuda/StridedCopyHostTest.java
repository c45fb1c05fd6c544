package dev.jburn.cuda;

import dev.jburn.Shape;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The movement kernels' CUDA source compiled by the host C++ compiler (one thread, whose grid-stride
 * loop covers every element) and called with the arguments the engine passes: the 32-bit index
 * entries (fast division) and the 64-bit ones gather and scatter exactly what {@link StridedView#source}
 * says, for transposes, reversed and stepped slices and broadcasts. Skipped where {@code g++} is missing.
 */
class StridedCopyHostTest {
    private static final String SHIM = """
            #include <cstring>
            struct jb_dim3 { unsigned x, y, z; };
            static const jb_dim3 blockIdx = {0, 0, 0}, threadIdx = {0, 0, 0}, gridDim = {1, 1, 1}, blockDim = {1, 1, 1};
            #define __global__
            #define __device__
            #define __forceinline__ inline
            static inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
            """;

    @Test
    void thirtyTwoAndSixtyFourBitEntriesGatherAndScatterTheView() throws Exception {
        Assumptions.assumeTrue(HostKernelTestSupport.hasCompiler(), "no g++ on this machine");
        Path dir = Files.createTempDirectory("jburn-strided");
        try {
            Path src = dir.resolve("copy.cpp"), lib = dir.resolve("libcopy.so");
            Files.writeString(src, SHIM + StridedCopy.SOURCE);
            Process p = new ProcessBuilder("g++", "-O1", "-std=c++17", "-shared", "-fPIC", "-w", "-o", lib.toString(), src.toString())
                    .redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes());
            assertEquals(0, p.waitFor(), log);
            Shape s = Shape.of(3, 5, 7, 4);
            List<StridedView> views = List.of(
                    StridedView.transpose(s, new int[] {0, 3, 1, 2}),
                    StridedView.transpose(s, new int[] {3, 2, 1, 0}),
                    StridedView.reverse(s, new int[] {1, 3}),
                    StridedView.slice(s, new int[] {1, 1, 0, 2}, new int[] {2, 4, 7, 2}, new int[] {1, 2, 3, 1}),
                    StridedView.broadcast(Shape.of(5, 1), Shape.of(2, 5, 6), new int[] {1, 2}),
                    new StridedView(0, new long[] {420}, new long[] {1}));
            try (Arena arena = Arena.ofConfined()) {
                SymbolLookup lookup = SymbolLookup.libraryLookup(lib, arena);
                MethodHandle copy32 = handle(lookup, StridedCopy.entry32(4), true), copy64 = handle(lookup, StridedCopy.entry(4), false);
                MethodHandle scatter32 = handle(lookup, StridedCopy.scatterEntry32(4), true), scatter64 = handle(lookup, StridedCopy.scatterEntry(4), false);
                int[] input = new int[420];
                for (int i = 0; i < input.length; i++) input[i] = 1000 + i;
                MemorySegment in = arena.allocateFrom(JAVA_INT, input);
                for (StridedView v : views) {
                    int n = (int) v.size();
                    int[] expected = new int[n];
                    for (int i = 0; i < n; i++) expected[i] = input[(int) v.source(i)];
                    for (boolean wide : new boolean[] {false, true}) {
                        MemorySegment out = arena.allocate(JAVA_INT, n);
                        call(wide ? copy64 : copy32, wide, arena, in, out, n, v.base(), v.dims(), v.strides());
                        assertArrayEquals(expected, out.toArray(JAVA_INT), (wide ? "64" : "32") + "-bit copy of " + v);
                    }
                    // The scatter writes a contiguous source to the view's positions (views without repeats: not broadcasts).
                    if (v.strides().length == 3) continue;
                    int[] scattered = new int[420];
                    for (int i = 0; i < n; i++) scattered[(int) v.source(i)] = expected[i];
                    for (boolean wide : new boolean[] {false, true}) {
                        MemorySegment dst = arena.allocate(JAVA_INT, 420);
                        call(wide ? scatter64 : scatter32, wide, arena, arena.allocateFrom(JAVA_INT, expected), dst, n, v.base(), v.dims(), v.strides());
                        assertArrayEquals(scattered, dst.toArray(JAVA_INT), (wide ? "64" : "32") + "-bit scatter of " + v);
                    }
                }
            }
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static MethodHandle handle(SymbolLookup lookup, String entry, boolean narrow) {
        java.lang.foreign.StructLayout divs = java.lang.foreign.MemoryLayout.structLayout(java.lang.foreign.MemoryLayout.sequenceLayout(24, JAVA_INT));
        java.lang.foreign.StructLayout ints = java.lang.foreign.MemoryLayout.structLayout(java.lang.foreign.MemoryLayout.sequenceLayout(8, JAVA_INT));
        java.lang.foreign.StructLayout longs = java.lang.foreign.MemoryLayout.structLayout(java.lang.foreign.MemoryLayout.sequenceLayout(8, JAVA_LONG));
        FunctionDescriptor fd = narrow
                ? FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, divs, ints)
                : FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT, longs, longs);
        return Linker.nativeLinker().downcallHandle(lookup.find(entry).orElseThrow(), fd);
    }

    private static void call(MethodHandle h, boolean wide, Arena a, MemorySegment in, MemorySegment out, int n, long base, long[] dims, long[] strides) throws Exception {
        try {
            if (wide) {
                h.invoke(in, out, (long) n, base, dims.length, a.allocateFrom(JAVA_LONG, StridedView.padded(dims)), a.allocateFrom(JAVA_LONG, StridedView.padded(strides)));
            } else {
                assertEquals(true, StridedCopy.fits32(n, base, dims, strides));
                h.invoke(in, out, n, (int) base, dims.length, a.allocateFrom(JAVA_INT, FastDivisors.struct(dims)), a.allocateFrom(JAVA_INT, FastDivisors.ints(strides)));
            }
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
