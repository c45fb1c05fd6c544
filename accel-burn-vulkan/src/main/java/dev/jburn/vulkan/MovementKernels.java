package dev.jburn.vulkan;

import dev.jburn.DType;
import dev.jburn.kernels.CopyPlan;
import dev.jburn.Shape;
import dev.jburn.spi.Operand;

import java.util.ArrayList;
import java.util.List;

/**
 * Transpose, broadcast, slice, reverse, pad, concatenate and put-slice on the device, each one
 * {@link StridedCopyShader} dispatch per source (contiguous copies are plain buffer copies).
 * Every method returns {@code null} when this device cannot run the case (element width without
 * storage support, indices past 32 bits), and the backend falls back.
 */
final class MovementKernels {
    private final VulkanBackend b;

    MovementKernels(VulkanBackend b) { this.b = b; }

    /** Whether buffers of {@code dtype} can be bound on this device. */
    boolean supports(DType dtype) {
        return switch (dtype.byteSize()) {
            case 1 -> b.dev.features.storage8();
            case 2 -> b.dev.features.storage16();
            case 4, 8 -> true;
            default -> false;
        };
    }

    private Pipelines.Pipeline pipeline(String op, DType dtype) {
        int w = dtype.byteSize();
        return b.pipelines.get(op, "copy" + w, List.of("copy", w), () -> StridedCopyShader.source(w), 4, true);
    }

    /** Work groups for {@code n} elements with a grid-stride loop. */
    int groups(long n) {
        long g = (n + StridedCopyShader.GROUP - 1) / StridedCopyShader.GROUP;
        return (int) Math.max(1, Math.min(g, Math.min(b.dev.features.maxWorkGroupCountX(), 65535)));
    }

    boolean bindable(long bytes) {
        return bytes <= b.dev.features.maxStorageBufferRange();
    }

    /** One copy plan from {@code x} (padding from {@code padValue}) into a new buffer of {@code outElements}. */
    DeviceBuffer run(String op, Operand x, Operand padValue, CopyPlan plan, long outElements) {
        DType t = x.dtype();
        if (!supports(t) || !plan.fitsInt32(x.size(), outElements)) return null;
        long outBytes = t.byteSize(outElements);
        if (!bindable(outBytes) || !bindable(x.buffer().byteSize())) return null;
        DeviceBuffer src = VulkanBackend.device(x.buffer(), op);
        DeviceBuffer pad = padValue == null ? src : VulkanBackend.device(padValue.buffer(), op);
        DeviceBuffer out = b.memory.allocateUninitialized(op, outBytes);
        try {
            if (outElements > 0) {
                Pipelines.Pipeline p = pipeline(op, t);
                b.queue.submit(op, r -> r.dispatch(op, p, List.of(src, out, pad), CommandQueue.writes(1), plan.params(), groups(plan.count()), 1, 1));
            }
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    DeviceBuffer transpose(Operand x, int[] perm) {
        return run("transpose", x, null, CopyPlan.transpose(x.shape(), perm), x.size());
    }

    DeviceBuffer broadcast(Operand x, Shape outShape, int[] axes) {
        return run("broadcast", x, null, CopyPlan.broadcast(x.shape(), outShape, axes), outShape.size());
    }

    DeviceBuffer slice(Operand x, int[] starts, int[] lengths, int[] strides) {
        CopyPlan p = CopyPlan.slice(x.shape(), starts, lengths, strides);
        return run("slice", x, null, p, p.count());
    }

    DeviceBuffer reverse(Operand x, int[] axes) {
        return run("reverse", x, null, CopyPlan.reverse(x.shape(), axes), x.size());
    }

    DeviceBuffer pad(Operand x, Operand padValue, int[] lo, int[] hi, int[] interior) {
        CopyPlan p = CopyPlan.pad(x.shape(), lo, hi, interior);
        return run("pad", x, padValue, p, p.count());
    }

    /** Parts placed one after another along {@code axis}: one dispatch per non-empty part, one submission. */
    DeviceBuffer concatenate(List<Operand> parts, int axis) {
        DType t = parts.getFirst().dtype();
        Shape first = parts.getFirst().shape();
        int[] outDims = first.dims();
        outDims[axis] = 0;
        for (Operand o : parts) outDims[axis] += o.shape().dim(axis);
        Shape outShape = Shape.of(outDims);
        if (!supports(t) || parts.size() > 48) return null;
        List<CopyPlan> plans = new ArrayList<>();
        long offset = 0;
        for (Operand o : parts) {
            long[] starts = new long[outShape.rank()];
            starts[axis] = offset;
            CopyPlan p = CopyPlan.place(o.shape(), outShape, starts);
            if (!p.fitsInt32(o.size(), outShape.size()) || !bindable(o.buffer().byteSize())) return null;
            plans.add(p);
            offset += o.shape().dim(axis);
        }
        long outBytes = t.byteSize(outShape.size());
        if (!bindable(outBytes)) return null;
        DeviceBuffer out = b.memory.allocateUninitialized("concatenate", outBytes);
        try {
            if (outShape.size() > 0) {
                Pipelines.Pipeline pipe = pipeline("concatenate", t);
                b.queue.submit("concatenate", r -> {
                    for (int i = 0; i < parts.size(); i++) {
                        if (plans.get(i).count() == 0) continue;
                        DeviceBuffer src = VulkanBackend.device(parts.get(i).buffer(), "concatenate");
                        r.dispatch("concatenate", pipe, List.of(src, out, src), CommandQueue.writes(1), plans.get(i).params(), groups(plans.get(i).count()), 1, 1);
                    }
                });
            }
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** {@code x} copied, then {@code update} written at {@code starts}. */
    DeviceBuffer putSlice(Operand x, int[] starts, Operand update) {
        DType t = x.dtype();
        long[] st = new long[starts.length];
        for (int i = 0; i < st.length; i++) st[i] = starts[i];
        CopyPlan p = CopyPlan.place(update.shape(), x.shape(), st);
        long bytes = t.byteSize(x.size());
        if (!supports(t) || !p.fitsInt32(update.size(), x.size()) || !bindable(bytes) || !bindable(update.buffer().byteSize())) return null;
        DeviceBuffer src = VulkanBackend.device(x.buffer(), "putSlice");
        DeviceBuffer upd = VulkanBackend.device(update.buffer(), "putSlice");
        DeviceBuffer out = b.memory.allocateUninitialized("putSlice", bytes);
        try {
            if (bytes > 0) {
                Pipelines.Pipeline pipe = pipeline("putSlice", t);
                b.queue.submit("putSlice", r -> {
                    r.keep(src);
                    r.copy(src.handle(), 0, out.handle(), 0, bytes);
                    if (p.count() > 0) r.dispatch("putSlice", pipe, List.of(upd, out, upd), CommandQueue.writes(1), p.params(), groups(p.count()), 1, 1);
                });
            }
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }
}
