package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.graph.CompiledFunction;
import dev.jburn.graph.Jit;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkBufferCreateInfo;

import java.util.List;

import static org.lwjgl.vulkan.VK10.*;

/**
 * A little of everything the Vulkan engine records: element-wise ops with broadcasting and casts
 * over several dtypes, reductions, arg reductions, movement (transpose, slice, pad, concatenate, putSlice, reverse), gather, indexed add/put, pow, window scatters,
 * iota, f32 and f64 GEMM, a Jit-fused chain, a fused reduction and a group too wide for one pipeline, staging copies, freed and
 * reused buffers, shape-specific pipelines released while work that binds them is queued, then close. {@link VulkanValidationTest} runs it under the Khronos validation
 * layer with synchronization validation. With the argument {@code invalid} it also makes one
 * deliberately invalid call, to show the layer's reports reach the test.
 */
public final class ValidationWorkload {
    private ValidationWorkload() {}

    public static void main(String[] args) {
        Engine vk = Engine.select("vulkan");
        VulkanBackend b = (VulkanBackend) vk.backend();
        try (var scope = Tensor.scope()) {
            Tensor a = Tensor.iota(Shape.of(4, 6), DType.F32).to(vk);
            Tensor row = Tensor.of(1f, 2f, 3f, 4f, 5f, 6f).to(vk);
            Tensor c = a.multiply(row).add(1.0).exp().divide(a.add(2.0));
            Tensor i = Tensor.iota(Shape.of(4, 6), DType.S32).to(vk);
            Tensor h = i.asType(DType.F16).add(i.asType(DType.F16));
            Tensor u8 = i.asType(DType.U8).bitwiseAnd(Tensor.of(7).asType(DType.U8).to(vk));
            c.sum(new int[] {1}).toFloatArray();
            a.max(new int[] {0}).toFloatArray();
            Tensor.concatenate(0, a.transpose().slice(new int[] {1, 0}, new int[] {3, 4}), a.transpose().reverse(new int[] {0})).toFloatArray();
            a.pad(0.0, new int[][] {{1, 1, 1}, {0, -1, 0}}).toFloatArray();
            a.putSlice(new int[] {1, 2}, row.reshape(2, 3)).toFloatArray(); // two copies into one buffer, ordered by a barrier
            a.take(Tensor.of(3, 0, 2).to(vk), 0).toFloatArray();
            a.greater(5).select(a, row.negate()).toFloatArray();
            Tensor rows = Tensor.of(new int[] {2, 0, 2}).reshape(3, 1).to(vk);
            a.indexedAdd(rows, a.slice(new int[] {0, 0}, new int[] {3, 6})).toFloatArray(); // a copy, then a scatter, in one submission
            a.indexedPut(rows, row.reshape(1, 6).broadcast(Shape.of(3, 6))).toFloatArray();
            a.asinh().cbrt().toFloatArray();
            a.pow(row.multiply(0.5)).toFloatArray();
            // a selection, then the scatter that reads it, in one submission; f16 also casts to f64 and back around it
            dev.jburn.WindowOptions strided = dev.jburn.WindowOptions.defaults().withStrides(1, 2);
            a.windowScatterMax(a.windowMax(new int[] {2, 3}, strided), 0.0, new int[] {2, 3}, strided).toFloatArray();
            h.windowScatterMin(h.slice(new int[] {0, 0}, new int[] {3, 5}), 1, new int[] {2, 2}, dev.jburn.WindowOptions.defaults()).toFloatArray();
            a.transpose().argmax(1).toIntArray(); // a transpose, then the arg reduction
            a.argmin().toIntArray();
            Tensor f64 = a.asType(DType.F64);
            f64.dot(f64.transpose()).toDoubleArray();
            Tensor m = Tensor.iota(Shape.of(130, 70), DType.F32).to(vk).multiply(0.01);
            m.dot(m.transpose()).sum().toFloatArray();
            Tensor w = Tensor.iota(Shape.of(36, 20), DType.F32).to(vk).multiply(0.01);
            w.dot(w.transpose().slice(new int[] {0, 0}, new int[] {20, 32})).toFloatArray(); // K, N multiples of 4: vec4 loads
            h.toFloatArray();
            u8.toIntArray();
            CompiledFunction chain = Jit.compileList(in -> List.of(in.get(0).multiply(in.get(1)).add(1.0).exp().sum(new int[] {1})));
            for (int k = 0; k < 3; k++) chain.apply(List.of(a, row)).getFirst().toFloatArray();
            // A fused group reading more buffers than a pipeline may bind: op by op, never an oversized layout.
            CompiledFunction wide = Jit.compileList(in -> {
                Tensor s = in.getFirst();
                for (int k = 1; k < in.size(); k++) s = s.add(in.get(k));
                return List.of(s);
            });
            java.util.List<Tensor> many = new java.util.ArrayList<>();
            for (int k = 0; k < CommandQueue.MAX_BINDINGS + 6; k++) many.add(row.add((double) k));
            wide.apply(many).getFirst().toFloatArray();
        }
        // Shape-specific pipelines released while submissions that bind them may still be queued: the
        // cleaner must destroy none before its last submission has finished.
        try (var scope = Tensor.scope()) {
            Tensor x = Tensor.iota(Shape.of(3000), DType.F32).to(vk);
            List<Tensor> queued = new java.util.ArrayList<>();
            for (int k = 0; k < 8; k++) queued.add(x.slice(new int[] {0}, new int[] {2000 + k}).multiply(1.5).cos());
            b.elementwise.forgetPipelines();
            for (int k = 0; k < 5; k++) {
                System.gc();
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            for (Tensor t : queued) t.toFloatArray();
        }
        for (int k = 0; k < 50; k++) {
            try (Tensor t = Tensor.zeros(Shape.of(1000 + k), DType.F32).to(vk); Tensor u = t.add(1.0)) {
                u.toFloatArray();
            }
        }
        if (args.length > 0 && args[0].equals("invalid")) {
            try (MemoryStack s = MemoryStack.stackPush()) {
                VkBufferCreateInfo ci = VkBufferCreateInfo.calloc(s).sType$Default().size(0).usage(VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
                java.nio.LongBuffer lp = s.mallocLong(1);
                if (vkCreateBuffer(b.dev.device, ci, null, lp) == VK_SUCCESS) vkDestroyBuffer(b.dev.device, lp.get(0), null);
            }
        }
        b.close();
        System.out.println("WORKLOAD done");
    }
}
