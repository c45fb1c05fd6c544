package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.ElementwiseKernel;
import dev.jburn.kernels.Emitter;
import dev.jburn.kernels.KernelSource;
import dev.jburn.op.UnaryOp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every MSL kernel the emitter writes ({@link MslKernels}, with and without native bfloat) passes
 * {@code clang -x c++ -std=c++17 -fsyntax-only} against the {@code metal_stdlib} shim, which declares
 * only the MSL built-ins the kernels may use; and the same check rejects broken kernels.
 */
class MslSyntaxTest {
    private static Path work, shim;

    @BeforeAll
    static void setUp() throws Exception {
        Assumptions.assumeTrue(Clang.present(), Clang.missing());
        work = Files.createTempDirectory("jburn-msl-syntax");
        shim = Clang.shimDir(work);
    }

    @AfterAll
    static void tearDown() throws Exception { Clang.delete(work); }

    @Test
    void everyGeneratedKernelPassesClang() throws Exception {
        MslUnit unit = new MslUnit(false);
        for (var f : List.of(MslKernels.APPLE, MslKernels.APPLE_BFLOAT)) {
            MslKernels all = MslKernels.all(f);
            for (MslCase c : all.cases()) {
                // With native bfloat only the BF16 kernels' declarations differ.
                if (!f.bfloat() || c.label().contains("bf16")) unit.add(c.label() + (f.bfloat() ? " [bfloat]" : ""), c, false);
            }
            if (!f.bfloat()) {
                System.out.println("MSL: " + all.cases().size() + " kernels emitted; not emitted (they run on the cpu engine, counted):");
                all.unsupported().forEach((why, n) -> System.out.println("  " + n + " x " + why));
            }
        }
        Path src = work.resolve("all.metal.cpp");
        Files.writeString(src, unit.text);
        long t0 = System.nanoTime();
        Clang.Result r = Clang.run(shim, src, "-fsyntax-only", "-ferror-limit=50");
        List<String> errors = unit.errors(r.log());
        System.out.printf("MSL syntax check: %d kernels through clang -fsyntax-only in %.1f s, %d errors%n",
                unit.size(), (System.nanoTime() - t0) * 1e-9, errors.size());
        errors.stream().limit(20).forEach(e -> System.out.println("  " + e));
        assertTrue(unit.size() > 1100, "the catalogue shrank: " + unit.size());
        assertTrue(r.ok() && errors.isEmpty(), "clang rejected generated MSL:\n" + String.join("\n", errors) + "\n" + r.log().lines().limit(30).toList());
    }

    /** Each way to break a good kernel is caught, and the good kernel itself passes (so the failures are the breakage's). */
    @Test
    void theCheckCatchesBrokenKernels() throws Exception {
        KernelSource good = Emitter.emit(ElementwiseKernel.unary(UnaryOp.EXP, DType.F16, DType.F16, Shape.of(8)), Dialect.METAL, MslKernels.APPLE);
        assertTrue(check(good.code()).ok(), check(good.code()).log());
        String code = good.code();
        List<List<String>> breakages = List.of(
                List.of("a missing semicolon", "if (i >= n) return;", "if (i >= n) return"),
                List.of("double, which MSL lacks", "typedef float f32;", "typedef double f32;"),
                List.of("a math function MSL lacks", "exp(", "expm1("),
                List.of("a half read as if it were a number", "jb_f16_value(u32(jb_bits(in0[i])))", "jb_f16_value(in0[i])"),
                List.of("an undeclared built-in", "threadgroup_barrier", "threadgroup_barier"),
                List.of("a store of the wrong type", "out[i] = jb_f16_store(", "out[i] = (float)("));
        for (List<String> b : breakages) {
            String broken = b.get(1).equals("threadgroup_barrier") ? code + "FN void f() { threadgroup_barier(mem_flags::mem_threadgroup); }\n"
                    : code.replace(b.get(1), b.get(2));
            assertFalse(broken.equals(code), "breakage '" + b.get(0) + "' did not apply: the kernel no longer contains " + b.get(1));
            Clang.Result r = check(broken);
            assertFalse(r.ok(), "clang accepted a kernel with " + b.get(0));
            assertTrue(r.log().contains("error"), r.log());
        }
    }

    private static Clang.Result check(String code) throws Exception {
        Path src = work.resolve("one.metal.cpp");
        Files.writeString(src, code);
        Clang.Result r = Clang.run(shim, src, "-fsyntax-only");
        assertEquals(r.ok(), r.exit() == 0);
        return r;
    }
}
