package dev.jburn.kernels;

import dev.jburn.DType;

import java.util.List;
import java.util.Set;

/**
 * The Metal Shading Language (MSL 2.4; 3.1 where BF16 buffers are declared {@code bfloat}), for
 * {@code newLibraryWithSource:options:error:} with fast math off. Buffers live in the {@code device}
 * address space, the element count in {@code constant}, the reduction tree in {@code threadgroup};
 * bits move through {@code as_type<>}. F16 buffers are declared {@code half} (BF16 ones {@code bfloat}
 * where {@link DeviceFeatures#bfloat()}, else {@code ushort}), but their values convert in the shared
 * software code ({@link Prelude}): its round-to-nearest-even is tested bit for bit, the GPU's own
 * conversion rounding is not something a Linux machine can check.
 *
 * <p>MSL has no {@code double}: F64 kernels are reported unsupported (the device features say
 * {@code float64 = false}) and run on the cpu engine, counted. It also lacks {@code expm1, log1p,
 * erf, erfc, cbrt}, and its {@code pow, atan2, fmod} special values (NaN, ±0, ±Inf operands) are
 * not specified as IEEE's, so those are reported missing too, as the GLSL dialect does.
 *
 * <p>Kernels index with {@code uint} ({@code thread_position_in_grid} is 32 bits): one dispatch
 * covers fewer than 2^32 elements, and the host splits larger ones.
 */
final class MetalDialect implements Dialect {
    private static final Set<String> MATH = Set.of("exp", "log", "sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos", "atan",
            "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "floor", "ceil", "trunc", "fabs", "round");

    @Override public String name() { return "msl"; }

    @Override
    public String header(DeviceFeatures f) {
        StringBuilder s = new StringBuilder("""
                #include <metal_stdlib>
                using namespace metal;
                typedef uint u32; typedef int i32; typedef ulong u64; typedef long i64;
                typedef float f32; typedef uint idx_t;
                """);
        // One name for BF16 buffers, so open() and toStorage() need not see the features.
        s.append(f.bfloat() ? "typedef bfloat jb_bf16;\n" : "typedef ushort jb_bf16;\n");
        s.append("""
                #define FN static inline
                #define F2U(x) as_type<uint>(x)
                #define U2F(x) as_type<float>(x)
                #define MSB32(x) (31 - int(clz(uint(x))))
                #define POPC32(x) u32(popcount(uint(x)))
                // A stored element as the shared code reads it: 16-bit floats as their bits, the rest unchanged.
                // One overload per storage type rather than a template: nothing to deduce from a device reference.
                FN uchar jb_bits(uchar x) { return x; }
                FN char jb_bits(char x) { return x; }
                FN ushort jb_bits(ushort x) { return x; }
                FN short jb_bits(short x) { return x; }
                FN uint jb_bits(uint x) { return x; }
                FN int jb_bits(int x) { return x; }
                FN ulong jb_bits(ulong x) { return x; }
                FN long jb_bits(long x) { return x; }
                FN float jb_bits(float x) { return x; }
                FN u32 jb_bits(half x) { return u32(as_type<ushort>(x)); }
                FN half jb_f16_store(u32 bits) { return as_type<half>(ushort(bits)); }
                """);
        s.append(f.bfloat()
                ? "FN u32 jb_bits(bfloat x) { return u32(as_type<ushort>(x)); }\nFN bfloat jb_bf16_store(u32 bits) { return as_type<bfloat>(ushort(bits)); }\n"
                : "FN ushort jb_bf16_store(u32 bits) { return ushort(bits); }\n");
        return s.toString();
    }

    @Override
    public String storageType(DType t) {
        return switch (t) {
            case PRED, U8 -> "uchar";
            case S8 -> "char";
            case U16 -> "ushort";
            case F16 -> "half";
            case BF16 -> "jb_bf16";
            case S16 -> "short";
            case U32 -> "uint";
            case S32 -> "int";
            case U64 -> "ulong";
            case S64 -> "long";
            case F32 -> "float";
            case F64 -> throw new Emitter.Unsupported("msl has no 64-bit floats");
        };
    }

    @Override
    public String math(String fn, boolean f64) {
        if (f64 || !MATH.contains(fn)) return null;
        return fn;
    }

    @Override public String math2(String fn, boolean f64) { return null; }

    @Override public String f32Bits(int bits) { return String.format("as_type<float>(0x%08xu)", bits); }

    @Override
    public String f64Bits(long bits) { throw new Emitter.Unsupported("msl has no 64-bit floats"); }

    @Override
    public String int64Literal(long v, boolean unsigned) {
        return String.format("%s(0x%016xul)", unsigned ? "ulong" : "long", v);
    }

    @Override
    public String open(String name, List<DType> inputs, DType out) {
        return signature(name, inputs, out, "uint gid [[thread_position_in_grid]]")
                + "  idx_t i = gid;\n  if (i >= n) return;\n  {\n";
    }

    /** {@code kernel void name(buffers, constant uint& n, position attributes) {}. */
    private String signature(String name, List<DType> inputs, DType out, String positions) {
        StringBuilder s = new StringBuilder("kernel void ").append(name).append("(\n");
        for (int k = 0; k < inputs.size(); k++) {
            s.append("    device const ").append(storageType(inputs.get(k))).append("* in").append(k)
                    .append(" [[buffer(").append(k).append(")]],\n");
        }
        s.append("    device ").append(storageType(out)).append("* out [[buffer(").append(inputs.size()).append(")]],\n");
        s.append("    constant uint& n [[buffer(").append(inputs.size() + 1).append(")]],\n");
        s.append("    ").append(positions).append(") {\n");
        return s.toString();
    }

    @Override public String close() { return "  }\n}\n"; }

    @Override
    public String openReduction(String name, List<DType> inputs, DType out, String acc) {
        return signature(name, inputs, out, "uint o [[threadgroup_position_in_grid]],\n    uint t [[thread_position_in_threadgroup]]")
                + "  threadgroup " + acc + " sh[256];\n"
                + "  if (o >= n) return;\n  {\n";
    }

    @Override public String closeReduction() { return "  }\n}\n"; }

    @Override public String barrier() { return "threadgroup_barrier(mem_flags::mem_threadgroup);"; }

    @Override public String read(int k, String index) { return "jb_bits(in" + k + "[" + index + "])"; }

    @Override public String write(int outBinding, String index, String value) { return "out[" + index + "] = " + value + ";"; }

    @Override
    public String toStorage(DType t, String value) {
        return switch (t) {
            case F16 -> "jb_f16_store(" + value + ")";
            case BF16 -> "jb_bf16_store(" + value + ")";
            default -> storageType(t) + "(" + value + ")";
        };
    }
}
