package dev.jburn.cuda;

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

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link BatchedCopy}'s kernel compiled by the host C++ compiler and run over its whole grid (one
 * thread per block, so each block's stride loop covers its share): every range is copied whole,
 * including sizes that are no multiple of 16 bytes and empty ones, and nothing outside them is
 * written. Skipped where {@code g++} is missing.
 */
class BatchedCopyHostTest {
    private static final String SHIM = """
            struct jb_dim3 { unsigned x, y, z; };
            static jb_dim3 blockIdx = {0, 0, 0};
            static const jb_dim3 threadIdx = {0, 0, 0}, blockDim = {1, 1, 1};
            struct uint4 { unsigned x, y, z, w; };
            #define __global__
            """;
    private static final String DRIVER = """
            #include <cstring>
            extern "C" void jb_run(const unsigned long long* table, int n, int perRange) {
                JbCopies c;
                std::memcpy(&c, table, sizeof c);
                for (unsigned b = 0; b < (unsigned) (n * perRange); b++) { blockIdx.x = b; jb_batched_copy(c, n, perRange); }
            }
            """;

    @Test
    void everyRangeIsCopiedWholeAndNothingElse() throws Throwable {
        Assumptions.assumeTrue(HostKernelTestSupport.hasCompiler(), "no g++ on this machine");
        Path dir = Files.createTempDirectory("jburn-batched-copy");
        try {
            Path src = dir.resolve("copy.cpp"), lib = dir.resolve("libcopy.so");
            Files.writeString(src, SHIM + BatchedCopy.SOURCE + DRIVER);
            Process p = new ProcessBuilder("g++", "-O1", "-std=c++17", "-shared", "-fPIC", "-w", "-o", lib.toString(), src.toString())
                    .redirectErrorStream(true).start();
            String log = new String(p.getInputStream().readAllBytes());
            assertEquals(0, p.waitFor(), log);
            long[] sizes = {0, 1, 15, 16, 17, 512, 4099, 100_003};
            int n = sizes.length;
            try (Arena arena = Arena.ofConfined()) {
                MethodHandle run = Linker.nativeLinker().downcallHandle(SymbolLookup.libraryLookup(lib, arena).find("jb_run").orElseThrow(),
                        FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT, JAVA_INT));
                MemorySegment[] from = new MemorySegment[n], to = new MemorySegment[n];
                long[] s = new long[n], d = new long[n];
                long largest = 0;
                for (int i = 0; i < n; i++) {
                    from[i] = arena.allocate(sizes[i] + 16, 512);
                    to[i] = arena.allocate(sizes[i] + 16, 512);
                    for (long k = 0; k < sizes[i] + 16; k++) {
                        from[i].set(JAVA_BYTE, k, (byte) (31 * i + k));
                        to[i].set(JAVA_BYTE, k, (byte) 0x5a);
                    }
                    s[i] = from[i].address();
                    d[i] = to[i].address();
                    largest = Math.max(largest, sizes[i]);
                }
                int per = BatchedCopy.blocksPerRange(largest);
                run.invoke(arena.allocateFrom(JAVA_LONG, BatchedCopy.table(s, d, sizes, 0, n)), n, per);
                for (int i = 0; i < n; i++) {
                    byte[] want = from[i].asSlice(0, sizes[i]).toArray(JAVA_BYTE);
                    assertArrayEquals(want, to[i].asSlice(0, sizes[i]).toArray(JAVA_BYTE), "range of " + sizes[i] + " bytes");
                    for (long k = sizes[i]; k < sizes[i] + 16; k++) assertEquals((byte) 0x5a, to[i].get(JAVA_BYTE, k), "written past the range");
                }
            }
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
