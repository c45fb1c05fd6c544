package dev.jburn.vulkan;

/**
 * Nx {@code gather}: output element {@code (row, s)} is {@code x} at the index row's coordinates on
 * the gathered axes and slice coordinate {@code s} on the other axes. Indices are read as 32-bit
 * words (64-bit indices as two words: in range only when the high word is zero), so no 64-bit
 * arithmetic is needed. An index out of range sets a flag and the element is left unwritten; the
 * backend then lets the cpu engine raise the exact error.
 */
final class GatherShader {
    private GatherShader() {}

    static final int GROUP = 256;

    /**
     * GLSL statements that read index word(s) {@code e} of {@code idx[]} into {@code uint v} and set
     * {@code bool ok} when it is below {@code dim} (64-bit indices: in range only when the high word is zero).
     */
    static String readIndex(int indexBytes, boolean signedIndex) {
        return indexBytes == 8
                ? "uint lo = idx[2u * e], hi = idx[2u * e + 1u]; bool ok = hi == 0u && lo < dim; uint v = lo;"
                : signedIndex
                ? "int sv = int(idx[e]); bool ok = sv >= 0 && uint(sv) < dim; uint v = uint(sv);"
                : "uint v = idx[e]; bool ok = v < dim;";
    }

    /** Bindings: 0 x, 1 indices (as uint words), 2 output, 3 error flag (uint), 4 parameters. */
    static String source(int elementBytes, int indexBytes, boolean signedIndex) {
        String type = StridedCopyShader.elementType(elementBytes);
        String ext = StridedCopyShader.storageExtension(elementBytes);
        String read = elementBytes <= 2 ? type + "(uint(x[so]))" : "x[so]";
        String index = readIndex(indexBytes, signedIndex);
        return """
                #version 450
                %s// jburn gather, %d-byte elements, %d-byte %s indices
                layout(local_size_x = %d) in;
                layout(std430, binding = 0) readonly buffer X { %s x[]; };
                layout(std430, binding = 1) readonly buffer Idx { uint idx[]; };
                layout(std430, binding = 2) writeonly buffer Out { %s o[]; };
                layout(std430, binding = 3) buffer Flag { uint flag[]; };
                layout(std430, binding = 4) readonly buffer Params { uint p[]; };
                void main() {
                    uint n = p[0], slice = p[2], k = p[3], sliceRank = p[4];
                    uint step = gl_NumWorkGroups.x * %du;
                    for (uint i = gl_GlobalInvocationID.x; i < n; i += step) {
                        uint row = i / slice, s = i %% slice;
                        uint so = 0u;
                        bool inRange = true;
                        for (uint j = 0u; j < k; j++) {
                            uint dim = p[5u + 2u * j];
                            uint e = row * k + j;
                            %s
                            if (!ok) inRange = false; else so += v * p[6u + 2u * j];
                        }
                        uint b = 5u + 2u * k;
                        for (int d = int(sliceRank) - 1; d >= 0; d--) {
                            uint dd = p[b + 2u * uint(d)];
                            so += (s %% dd) * p[b + 2u * uint(d) + 1u];
                            s /= dd;
                        }
                        if (inRange) o[i] = %s; else flag[0] = 1u;
                    }
                }
                """.formatted(ext, elementBytes, indexBytes, signedIndex ? "signed" : "unsigned", GROUP, type, type, GROUP, index, read);
    }
}
