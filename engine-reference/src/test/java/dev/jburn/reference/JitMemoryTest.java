package dev.jburn.reference;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import dev.jburn.spi.HostMemory;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.jburn.reference.JitTestSupport.VERIFY;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Compiled calls free every intermediate and constant they make. */
class JitMemoryTest {
    @Test
    void noNativeMemoryLeaksOverAThousandCalls() {
        Tensor x = Tensor.iota(Shape.of(64, 32), DType.F32);
        Tensor w = Tensor.iota(Shape.of(32, 16), DType.F32).divide(512);
        CompiledFunction f = Jit.compileList(xs -> {
            Tensor h = xs.get(0).dot(xs.get(1)).add(Tensor.of(0.5f)).maximum(0.0);
            Tensor loop = Jit.whileLoop(Tensor.scalar(0f), s -> s.less(3), s -> s.add(h.mean()));
            Tensor c = Jit.cond(h.sum().greater(0), () -> h.exp().sum(), () -> h.sum());
            return List.of(h.sum(new int[] {1}), loop, c, xs.get(0));
        }, VERIFY);
        for (List<Tensor> warm : List.of(f.apply(List.of(x, w)))) warm.forEach(Tensor::close);
        long before = HostMemory.live();
        for (int i = 0; i < 1000; i++) {
            for (Tensor t : f.apply(List.of(x, w))) t.close();
        }
        long after = HostMemory.live();
        assertTrue(after - before <= 4096, "live host bytes grew from " + before + " to " + after);
    }
}
