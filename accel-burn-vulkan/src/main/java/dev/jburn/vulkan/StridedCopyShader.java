package dev.jburn.vulkan;

import dev.jburn.kernels.CopyPlan;
import dev.jburn.kernels.StridedCopyBody;

/**
 * One GLSL shader for every data movement: each element of an iteration space is read from the
 * source through a per-axis affine map (or replaced by a pad value) and written through per-axis
 * destination strides. Transpose, broadcast, slice, reverse, pad, concatenate and put-slice are all
 * instances ({@link CopyPlan}); the shader depends only on the element width, so four shaders
 * cover every dtype. The body that places an element is shared with the Metal engine's copy
 * ({@link StridedCopyBody}); this class writes the GLSL frame around it.
 *
 * <p>Per axis {@code k} (innermost last), with iteration coordinate {@code c}:
 * {@code t = c*mul + add}; the element is padding when {@code t < 0}, {@code t % div != 0} or
 * {@code t/div >= srcDim}; otherwise it reads at {@code srcBase + sum((t/div)*srcStride)}; it
 * writes at {@code dstBase + sum(c*dstStride)}.
 */
final class StridedCopyShader {
    private StridedCopyShader() {}

    static final int GROUP = 256;

    /** The GLSL type a shader moves elements of {@code bytes} bytes as (bit patterns, whatever the dtype). */
    static String elementType(int bytes) {
        return switch (bytes) {
            case 1 -> "uint8_t";
            case 2 -> "uint16_t";
            case 4 -> "uint";
            case 8 -> "uvec2";
            default -> throw new IllegalArgumentException("element width " + bytes);
        };
    }

    /** The extension line that element type needs in a storage buffer (empty for 4 and 8 bytes). */
    static String storageExtension(int bytes) {
        return switch (bytes) {
            case 1 -> "#extension GL_EXT_shader_8bit_storage : require\n";
            case 2 -> "#extension GL_EXT_shader_16bit_storage : require\n";
            default -> "";
        };
    }

    /** Bindings: 0 source, 1 destination, 2 pad value (element 0), 3 parameters. */
    static String source(int elementBytes) {
        String type = elementType(elementBytes);
        String ext = storageExtension(elementBytes);
        // 8/16-bit storage allows loads and stores plus conversions to 32 bits; go through uint.
        String load = elementBytes <= 2 ? type + "(uint(%s))" : "%s";
        return """
                #version 450
                %s// jburn strided copy, %d-byte elements
                layout(local_size_x = %d) in;
                layout(std430, binding = 0) readonly buffer Src { %s src[]; };
                layout(std430, binding = 1) writeonly buffer Dst { %s dst[]; };
                layout(std430, binding = 2) readonly buffer PadValue { %s padValue[]; };
                layout(std430, binding = 3) readonly buffer Params { int p[]; };
                void main() {
                    uint n = uint(p[0]);
                    uint step = gl_NumWorkGroups.x * %du;
                    for (uint i = gl_GlobalInvocationID.x; i < n; i += step) {
                %s                        if (pad) {
                            dst[dof] = %s;
                        } else {
                            dst[dof] = %s;
                        }
                    }
                }
                """.formatted(ext, elementBytes, GROUP, type, type, type, GROUP, StridedCopyBody.locate("p", "i", "        "),
                load.formatted("padValue[0]"), load.formatted("src[so]"));
    }
}
