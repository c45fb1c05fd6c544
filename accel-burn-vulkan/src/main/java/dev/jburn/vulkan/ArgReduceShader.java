package dev.jburn.vulkan;

import dev.jburn.DType;

/**
 * {@code argmax}/{@code argmin} of each row of a row-major {@code [rows, n]} matrix, one work group
 * per row. Each invocation scans a strided share of the row in increasing order under the cpu
 * engine's rules (every NaN takes the lead, so the last NaN wins; ±0 compare equal; ties go to the
 * first index, or the last when {@code high}); the work group then combines the candidates in a
 * tree with the same rules stated order-free (of two NaNs the higher index; of equal values the
 * lower index, or the higher), so the answer is the sequential scan's.
 */
final class ArgReduceShader {
    private ArgReduceShader() {}

    static final int GROUP = 256;

    /**
     * How a shader reads elements of one dtype to compare them: the buffer's element type, the extensions it
     * needs, the type values compare in (exactly: U64 unsigned, F16/BF16 widened to float), and the load of
     * element {@code x[i]}. Also {@link WindowScatterShader}'s.
     */
    record Reader(String storage, String extensions, String compare, String load) {}

    /** How this device reads {@code t}; {@code null} where it cannot. */
    static Reader reader(DType t, VulkanFeatures f) {
        String ext8 = StridedCopyShader.storageExtension(1), ext16 = StridedCopyShader.storageExtension(2);
        String i64 = "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n";
        return switch (t) {
            case F32 -> new Reader("float", "", "float", "x[i]");
            case F64 -> f.float64() ? new Reader("double", "", "double", "x[i]") : null;
            case F16 -> f.storage16() ? new Reader("uint16_t", ext16, "float", "unpackHalf2x16(uint(x[i])).x") : null;
            case BF16 -> f.storage16() ? new Reader("uint16_t", ext16, "float", "uintBitsToFloat(uint(x[i]) << 16)") : null;
            case S32 -> new Reader("int", "", "int", "x[i]");
            case U32 -> new Reader("uint", "", "uint", "x[i]");
            case S64 -> f.int64() ? new Reader("int64_t", i64, "int64_t", "x[i]") : null;
            case U64 -> f.int64() ? new Reader("uint64_t", i64, "uint64_t", "x[i]") : null;
            case S16 -> f.storage16() ? new Reader("int16_t", ext16, "int", "int(x[i])") : null;
            case U16 -> f.storage16() ? new Reader("uint16_t", ext16, "uint", "uint(x[i])") : null;
            case S8 -> f.storage8() ? new Reader("int8_t", ext8, "int", "int(x[i])") : null;
            case U8, PRED -> f.storage8() ? new Reader("uint8_t", ext8, "uint", "uint(x[i])") : null;
        };
    }

    static boolean supports(DType in, DType out, VulkanFeatures f) {
        return reader(in, f) != null && out.isInteger() && (out.byteSize() >= 4 || (out.byteSize() == 2 ? f.storage16() : f.storage8()));
    }

    /** Bindings: 0 x {@code [rows, n]}, 1 output (one index per row), 2 parameters {@code [rows, n]}. */
    static String source(DType in, DType out, boolean max, boolean high, VulkanFeatures f) {
        Reader r = reader(in, f);
        String outType = StridedCopyShader.elementType(out.byteSize());
        String store = switch (out.byteSize()) {
            case 8 -> "uvec2(uint(si[0]), 0u)";
            case 4 -> "uint(si[0])";
            default -> outType + "(uint(si[0]))";
        };
        String ext = r.extensions().equals(StridedCopyShader.storageExtension(out.byteSize())) ? r.extensions()
                : r.extensions() + StridedCopyShader.storageExtension(out.byteSize());
        boolean fl = in.isFloat();
        String beats = max ? "v > bv" : "v < bv";         // strictly better
        String ties = high ? "true" : "false";            // on an equal value, does the later index win?
        return """
                #version 450
                %s// jburn %s of %s rows -> %s, ties to the %s index
                layout(local_size_x = %d) in;
                layout(std430, binding = 0) readonly buffer X { %s x[]; };
                layout(std430, binding = 1) writeonly buffer Out { %s o[]; };
                layout(std430, binding = 2) readonly buffer Params { uint p[]; };
                shared %s sv[%d];
                shared int si[%d];
                shared bool sn[%d];
                bool isNaN(%s v) { return %s; }
                void main() {
                    uint rows = p[0], n = p[1];
                    uint row = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
                    if (row >= rows) return; // the same for the whole work group
                    uint tid = gl_LocalInvocationID.x;
                    int best = -1;
                    %s bv = %s(0);
                    bool nan = false;
                    for (uint k = tid; k < n; k += %du) {
                        uint i = row * n + k;
                        %s v = %s;
                        if (isNaN(v)) { best = int(k); nan = true; }
                        else if (!nan && (best < 0 || %s || (v == bv && %s))) { best = int(k); bv = v; }
                    }
                    sv[tid] = bv; si[tid] = best; sn[tid] = nan;
                    barrier();
                    for (uint s = %du; s > 0u; s >>= 1) {
                        if (tid < s) {
                            int bi = si[tid + s];
                            if (bi >= 0) {
                                int ai = si[tid];
                                bool take;
                                if (ai < 0) take = true;
                                else if (sn[tid] || sn[tid + s]) take = sn[tid + s] && (!sn[tid] || bi > ai);
                                else {
                                    %s cv = sv[tid + s], cb = sv[tid];
                                    take = %s || (cv == cb && (%s ? bi > ai : bi < ai));
                                }
                                if (take) { sv[tid] = sv[tid + s]; si[tid] = bi; sn[tid] = sn[tid + s]; }
                            }
                        }
                        barrier();
                    }
                    if (tid == 0u) o[row] = %s;
                }
                """.formatted(ext, max ? "argmax" : "argmin", in, out, high ? "last" : "first",
                GROUP, r.storage(), outType, r.compare(), GROUP, GROUP, GROUP, r.compare(), fl ? "isnan(v)" : "false",
                r.compare(), r.compare(), GROUP, r.compare(), r.load(), beats, ties, GROUP / 2, r.compare(), max ? "cv > cb" : "cv < cb", ties, store);
    }
}
