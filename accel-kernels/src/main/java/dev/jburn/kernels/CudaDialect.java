package dev.jburn.kernels;

import dev.jburn.DType;

import java.util.List;
import java.util.Set;

/** CUDA C++ as NVRTC compiles it (no headers needed: every name used is an NVRTC built-in). */
final class CudaDialect implements Dialect {
    private static final Set<String> MATH = Set.of("exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "cbrt", "sin", "cos", "tan",
            "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "erfinv",
            "floor", "ceil", "trunc", "fabs", "round");
    private static final Set<String> MATH2 = Set.of("fmod", "pow", "atan2");

    @Override public String name() { return "cuda"; }

    @Override
    public String header(DeviceFeatures f) {
        return """
                typedef unsigned int u32; typedef int i32; typedef unsigned long long u64; typedef long long i64;
                typedef float f32; typedef double f64; typedef unsigned long long idx_t;
                #define FN static __device__ __forceinline__
                #define F2U(x) __float_as_uint(x)
                #define U2F(x) __uint_as_float(x)
                #define D_HI(x) ((u32)((u64)__double_as_longlong(x) >> 32))
                #define MSB32(x) (31 - __clz((int)(x)))
                #define POPC32(x) ((u32)__popc((unsigned int)(x)))
                """ + CudaVectorFrame.TYPES;
    }

    @Override
    public String storageType(DType t) {
        return switch (t) {
            case PRED, U8 -> "unsigned char";
            case S8 -> "signed char";
            case U16, F16, BF16 -> "unsigned short";
            case S16 -> "short";
            case U32 -> "unsigned int";
            case S32 -> "int";
            case U64 -> "unsigned long long";
            case S64 -> "long long";
            case F32 -> "float";
            case F64 -> "double";
        };
    }

    @Override
    public String math(String fn, boolean f64) {
        if (!MATH.contains(fn)) return null;
        return f64 ? fn : fn + "f";
    }

    @Override
    public String math2(String fn, boolean f64) {
        if (!MATH2.contains(fn)) return null;
        return f64 ? fn : fn + "f";
    }

    @Override public String f32Bits(int bits) { return String.format("__uint_as_float(0x%08xu)", bits); }

    @Override public String f64Bits(long bits) { return String.format("__longlong_as_double((long long)0x%016xull)", bits); }

    @Override
    public String int64Literal(long v, boolean unsigned) {
        return String.format("((%s)0x%016xull)", unsigned ? "u64" : "i64", v);
    }

    @Override
    public String open(String name, List<DType> inputs, DType out) {
        StringBuilder s = new StringBuilder("extern \"C\" __global__ void ").append(name).append('(');
        for (int k = 0; k < inputs.size(); k++) {
            s.append("const ").append(storageType(inputs.get(k))).append("* __restrict__ in").append(k).append(", ");
        }
        s.append(storageType(out)).append("* __restrict__ out, idx_t n) {\n");
        s.append("  for (idx_t i = (idx_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (idx_t)blockDim.x * gridDim.x) {\n");
        return s.toString();
    }

    @Override public String close() { return "  }\n}\n"; }

    @Override
    public String openReduction(String name, List<DType> inputs, DType out, String acc) {
        String head = open(name, inputs, out);
        head = head.substring(0, head.indexOf("  for ("));
        return head + "  __shared__ " + acc + " sh[256];\n"
                + "  u32 t = threadIdx.x;\n"
                + "  for (idx_t o = blockIdx.x; o < n; o += gridDim.x) {\n";
    }

    @Override public String closeReduction() { return "    __syncthreads();\n  }\n}\n"; }

    @Override public String barrier() { return "__syncthreads();"; }

    @Override public String read(int k, String index) { return "in" + k + "[" + index + "]"; }

    @Override public String write(int outBinding, String index, String value) { return "out[" + index + "] = " + value + ";"; }

    @Override public String toStorage(DType t, String value) { return "(" + storageType(t) + ")(" + value + ")"; }
}
