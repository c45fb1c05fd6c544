package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.kernels.CopyPlan;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.KernelSource;
import dev.jburn.kernels.StridedCopyBody;

import java.util.List;

/**
 * The metal engine's hand-written movement kernels, in MSL: one strided copy per element width
 * that runs every {@link CopyPlan} (slice, reverse, pad, the parts of a concatenation, a
 * put-slice's update), and iota's counter. They move bits, so one kernel serves every dtype of a
 * width, and read their shape from a parameter buffer, so one pipeline serves every shape. The
 * shared emitter writes arithmetic; these are the Metal twins of Vulkan's {@code StridedCopyShader}
 * and {@code IotaKernels}, with the same parameter words (the plan is shared) and, for the copy, the
 * same body ({@link StridedCopyBody}: MSL writes only the frame around it). Their signatures are
 * the dialect's ({@link Dialect#open}): inputs {@code in0..}, then {@code out} and the count {@code n}.
 */
final class MslMovement {
    private MslMovement() {}

    /** The dialect's header (its {@code idx_t}, ...); the hand-written kernels declare no BF16 buffer, so {@code bfloat} does not matter. */
    static final String HEADER = Dialect.METAL.header(MetalFeatures.NONE.kernels());

    /** The unsigned dtype whose storage type moves elements of {@code bytes} bytes as bits. */
    static DType bits(int bytes) {
        return switch (bytes) {
            case 1 -> DType.U8;
            case 2 -> DType.U16;
            case 4 -> DType.U32;
            case 8 -> DType.U64;
            default -> throw new IllegalArgumentException("element width " + bytes);
        };
    }

    /**
     * The strided copy of {@code bytes}-wide elements. Inputs: 0 the source, 1 the pad value (element 0;
     * the source again when nothing pads), 2 {@link CopyPlan#params()}; {@code n} is the plan's count.
     */
    static KernelSource copy(int bytes) {
        DType t = bits(bytes);
        String entry = "jb_copy" + bytes;
        List<DType> in = List.of(t, t, DType.S32);
        String code = HEADER + "// jburn strided copy, " + bytes + "-byte elements (CopyPlan's parameters)\n"
                + Dialect.METAL.open(entry, in, t)
                + "    device const int* p = in2;\n"
                + StridedCopyBody.locate("p", "i", "    ")
                + "    out[dof] = pad ? in1[0] : in0[so];\n"
                + Dialect.METAL.close();
        return new KernelSource(entry, code, in, t);
    }

    /** iota's u32 counter {@code (i / stride) % dim}; input 0 holds {@code [dim, stride]} (both at least 1). */
    static KernelSource iota() {
        String code = HEADER + "// jburn iota counter (u32)\n" + Dialect.METAL.open("jb_iota", List.of(DType.U32), DType.U32)
                + "    out[i] = (i / in0[1]) % in0[0];\n" + Dialect.METAL.close();
        return new KernelSource("jb_iota", code, List.of(DType.U32), DType.U32);
    }
}
