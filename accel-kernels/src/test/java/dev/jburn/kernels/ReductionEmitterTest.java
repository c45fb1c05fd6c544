package dev.jburn.kernels;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.graph.Graph;
import dev.jburn.graph.Prim;
import dev.jburn.graph.Value;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.ReduceOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ReductionEmitterTest {
    /** Where the GLSL compile checks write their shaders; JUnit deletes it afterwards. */
    @TempDir Path scratch;

    private static List<ReductionKernel> catalog() {
        List<ReductionKernel> out = new ArrayList<>();
        Shape s = Shape.of(4, 5, 6);
        for (ReduceOp op : List.of(ReduceOp.SUM, ReduceOp.PRODUCT, ReduceOp.REDUCE_MAX, ReduceOp.REDUCE_MIN, ReduceOp.ALL, ReduceOp.ANY)) {
            for (DType t : DType.values()) {
                DType result = op == ReduceOp.ALL || op == ReduceOp.ANY ? DType.PRED : t;
                for (int[] axes : List.of(new int[] {2}, new int[] {0}, new int[] {0, 2}, new int[] {0, 1, 2}, new int[] {})) {
                    out.add(ReductionKernel.of(op, t, s, axes, result));
                }
            }
        }
        return out;
    }

    @Test
    void cudaExpressesEveryReductionOnEveryDtype() {
        for (ReductionKernel k : catalog()) {
            assertEquals(Optional.empty(), ReductionEmitter.unsupported(k, Dialect.CUDA, DeviceFeatures.ALL), k.op() + " " + k.outType());
        }
    }

    @Test
    void shapesAndCountsFollowTheAxes() {
        ReductionKernel k = ReductionKernel.of(ReduceOp.SUM, DType.F32, Shape.of(4, 5, 6), new int[] {0, 2}, DType.F32);
        assertEquals(Shape.of(5), k.outShape());
        assertEquals(24, k.reducedCount());
        String code = ReductionEmitter.emit(k, Dialect.CUDA, DeviceFeatures.ALL).code();
        assertTrue(code.contains("__shared__ f32 sh[256]"), code);
        assertTrue(code.contains("idx_t base = o * idx_t(6)"), code);
    }

    @Test
    void aFusedSumOfProductsReadsItsInputsInsideTheReductionLoop() {
        Graph.Builder g = Graph.builder();
        Value a = g.input(DType.F32, Shape.of(8, 16));
        Value b = g.input(DType.F32, Shape.of(16));
        Value p = g.add1(new Prim.Binary(BinaryOp.MULTIPLY, Shape.of(8, 16), DType.F32), a, b);
        Value s = g.add1(new Prim.Reduce(ReduceOp.SUM, new int[] {1}, DType.F32), p);
        ReductionKernel k = ReductionKernel.fused(g.build(List.of(s))).orElseThrow();
        assertEquals(Shape.of(8), k.outShape());
        String code = ReductionEmitter.emit(k, Dialect.CUDA, DeviceFeatures.ALL).code();
        assertTrue(code.contains("in0[i]") && code.contains("in1[c1]"), code);
    }

    @Test
    void everyGlslReductionCompiles() throws Exception {
        assumeTrue(Glslang.installed(), "glslangValidator not installed");
        Path dir = Files.createTempDirectory(scratch, "jburn-glsl-reduce");
        List<ReductionKernel> all = catalog();
        List<Path> shaders = new ArrayList<>();
        for (int n = 0; n < all.size(); n += 7) {
            ReductionKernel k = all.get(n);
            if (ReductionEmitter.unsupported(k, Dialect.GLSL, DeviceFeatures.ALL).isPresent()) continue;
            Path p = dir.resolve("r" + n + ".comp");
            Files.writeString(p, ReductionEmitter.emit(k, Dialect.GLSL, DeviceFeatures.ALL).code());
            shaders.add(p);
        }
        assertTrue(shaders.size() > 30, "compiled " + shaders.size());
        List<String> failures = Glslang.failures(shaders);
        assertTrue(failures.isEmpty(), failures.isEmpty() ? "" : failures.getFirst());
    }

    /** The forms {@link ReductionPlan} picks besides the default compile as GLSL too (a sample of types and ops; lavapipe runs them all). */
    @Test
    void everyGlslReductionFormCompiles() throws Exception {
        assumeTrue(Glslang.installed(), "glslangValidator not installed");
        Path dir = Files.createTempDirectory(scratch, "jburn-glsl-forms");
        List<Path> shaders = new ArrayList<>();
        for (ReductionKernel k : catalog()) {
            boolean sample = List.of(DType.F32, DType.F64, DType.S32, DType.U8, DType.BF16, DType.PRED).contains(k.producer().outType());
            // innermost axis reduced, and kept
            boolean axes = k.axes().length == 1 && (k.axes()[0] == 2 || k.axes()[0] == 0);
            if (!sample || !axes || ReductionEmitter.unsupported(k, Dialect.GLSL, DeviceFeatures.ALL).isPresent()) continue;
            String name = k.op() + "-" + k.producer().outType() + "-" + k.axes()[0];
            shaders.add(write(dir.resolve(name + "-thread.comp"), ReductionEmitter.emitPerThread(k, Dialect.GLSL, DeviceFeatures.ALL).code()));
            if (ReductionEmitter.splittable(k)) {
                shaders.add(write(dir.resolve(name + "-split.comp"), ReductionEmitter.emitSplit(k, Dialect.GLSL, DeviceFeatures.ALL, 3).code()));
                shaders.add(write(dir.resolve(name + "-columns.comp"), ReductionEmitter.emitColumns(k, Dialect.GLSL, DeviceFeatures.ALL, 3).code()));
            }
        }
        assertTrue(shaders.size() > 80, "compiled " + shaders.size());
        List<String> failures = Glslang.failures(shaders);
        assertTrue(failures.isEmpty(), failures.isEmpty() ? "" : failures.getFirst());
    }

    private static Path write(Path p, String code) throws Exception {
        Files.writeString(p, code);
        return p;
    }
}
