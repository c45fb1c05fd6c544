package dev.jburn.vulkan;

import dev.jburn.DType;

/**
 * Nx {@code indexed_add} / {@code indexed_put} into a copy of the target. One invocation per
 * element of the slice (the target's non-indexed axes) walks the index rows in order and adds
 * (or writes) its element of each row's update: every target element is touched by one
 * invocation only, in row order, so sums round exactly as the cpu engine's sequential loop does
 * and the last of duplicate writes wins, with no atomics. The price is that parallelism is the
 * slice size, not rows × slice (the CUDA engine makes the same choice). Indices are read as
 * 32-bit words like {@link GatherShader}'s; an index out of range sets a flag and its row is
 * skipped, and the backend lets the cpu engine raise the exact error.
 */
final class IndexUpdateShader {
    private IndexUpdateShader() {}

    static final int GROUP = 64;

    /** The GLSL type and extensions an accumulating update uses for {@code t}; {@code null} where it has none. */
    record Accumulator(String type, String extensions, String add) {}

    static Accumulator accumulator(DType t, VulkanFeatures f) {
        return switch (t) {
            case F32 -> new Accumulator("float", "", "o[at] + u[src]");
            case F64 -> f.float64() ? new Accumulator("double", "", "o[at] + u[src]") : null;
            case S32, U32 -> new Accumulator("uint", "", "o[at] + u[src]");
            case S64, U64 -> f.int64()
                    ? new Accumulator("uint64_t", "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n", "o[at] + u[src]")
                    : null;
            // 8/16-bit storage allows loads, stores and conversions to 32 bits: add in uint, keep the low bits (wraps like the cpu).
            case S8, U8 -> f.storage8() ? new Accumulator("uint8_t", StridedCopyShader.storageExtension(1), "uint8_t(uint(o[at]) + uint(u[src]))") : null;
            case S16, U16 -> f.storage16() ? new Accumulator("uint16_t", StridedCopyShader.storageExtension(2), "uint16_t(uint(o[at]) + uint(u[src]))") : null;
            default -> null; // pred, f16, bf16: the cpu engine's rounding per add is not reproduced here
        };
    }

    /**
     * Bindings: 0 updates, 1 indices (uint words), 2 output (holding the target), 3 error flag,
     * 4 parameters {@code [slice, rows, k, sliceRank, (dim, stride) per indexed axis, (dim, stride) per slice axis]}.
     *
     * @param acc the accumulator ({@link #accumulator}), or {@code null} for a put of {@code elementBytes}-wide elements
     */
    static String source(Accumulator acc, int elementBytes, int indexBytes, boolean signedIndex) {
        String type = acc != null ? acc.type() : StridedCopyShader.elementType(elementBytes);
        String ext = acc != null ? acc.extensions() : StridedCopyShader.storageExtension(elementBytes);
        String write = acc == null ? "o[at] = u[src];"
                : acc.type().equals("float") || acc.type().equals("double") ? "precise " + acc.type() + " v = " + acc.add() + "; o[at] = v;"
                : "o[at] = " + acc.add() + ";";
        String index = GatherShader.readIndex(indexBytes, signedIndex);
        return """
                #version 450
                %s// jburn indexed %s, %d-byte elements, %d-byte %s indices
                layout(local_size_x = %d) in;
                layout(std430, binding = 0) readonly buffer U { %s u[]; };
                layout(std430, binding = 1) readonly buffer Idx { uint idx[]; };
                layout(std430, binding = 2) buffer Out { %s o[]; };
                layout(std430, binding = 3) buffer Flag { uint flag[]; };
                layout(std430, binding = 4) readonly buffer Params { uint p[]; };
                void main() {
                    uint slice = p[0], rows = p[1], k = p[2], sliceRank = p[3];
                    uint step = gl_NumWorkGroups.x * %du;
                    for (uint s = gl_GlobalInvocationID.x; s < slice; s += step) {
                        // this invocation's place in the slice, the same for every row
                        uint so = 0u, rest = s, b = 4u + 2u * k;
                        for (int d = int(sliceRank) - 1; d >= 0; d--) {
                            uint dd = p[b + 2u * uint(d)];
                            so += (rest %% dd) * p[b + 2u * uint(d) + 1u];
                            rest /= dd;
                        }
                        for (uint row = 0u; row < rows; row++) {
                            uint at = so;
                            bool inRange = true;
                            for (uint j = 0u; j < k; j++) {
                                uint dim = p[4u + 2u * j];
                                uint e = row * k + j;
                                %s
                                if (!ok) inRange = false; else at += v * p[5u + 2u * j];
                            }
                            if (!inRange) { flag[0] = 1u; continue; }
                            uint src = row * slice + s;
                            %s
                        }
                    }
                }
                """.formatted(ext, acc != null ? "add" : "put", elementBytes, indexBytes, signedIndex ? "signed" : "unsigned",
                GROUP, type, type, GROUP, index, write);
    }
}
