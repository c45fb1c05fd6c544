package dev.jburn.kernels;

import dev.jburn.DType;

import java.util.List;
import java.util.Set;

/**
 * GLSL 4.50 compute shaders (compiled by shaderc for Vulkan). GLSL has no double-precision
 * transcendental functions: {@code exp, expm1, log, log1p, sinh, cosh, tanh} of f64 are
 * {@link GlslMath64}'s, the others (sin, erf, ...) are reported missing; its {@code mod}, {@code pow}
 * and {@code atan} leave the IEEE edge cases undefined: {@code pow} is {@link GlslPow}'s (on devices
 * with f64), the others are reported missing and run elsewhere.
 */
final class GlslDialect implements Dialect {
    /** Workgroup size of element-wise shaders; dispatch {@code ceil(n / 256)} groups, split over x and y beyond 65535. */
    static final int LOCAL_SIZE = 256;
    private static final Set<String> MATH_F32 = Set.of("exp", "expm1", "log", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "asin",
            "acos", "atan", "sinh", "cosh", "tanh", "erf", "erfc", "asinh", "acosh", "atanh", "cbrt", "floor", "ceil", "trunc", "fabs");
    private static final Set<String> MATH_F64 = Set.of("exp", "expm1", "log", "log1p", "sinh", "cosh", "tanh",
            "sqrt", "rsqrt", "floor", "ceil", "trunc", "fabs");

    @Override public String name() { return "glsl"; }

    @Override
    public String header(DeviceFeatures f) {
        StringBuilder s = new StringBuilder("#version 450\n");
        if (f.int64()) s.append("#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n");
        if (f.storage8()) s.append("#extension GL_EXT_shader_8bit_storage : require\n");
        if (f.storage16()) s.append("#extension GL_EXT_shader_16bit_storage : require\n");
        s.append("layout(local_size_x = ").append(LOCAL_SIZE).append(") in;\n");
        s.append(GlslExp.source(f.float64()));
        s.append(GlslMath.source(f.float64()));
        if (f.float64()) s.append(GlslMath64.source()).append(GlslPow.source());
        s.append(GlslTrig.source(f.float64(), f.int64()));
        s.append("""
                #define u32 uint
                #define i32 int
                #define f32 float
                #define f64 double
                #define u64 uint64_t
                #define i64 int64_t
                #define idx_t uint
                #define FN
                #define F2U(x) floatBitsToUint(x)
                #define U2F(x) uintBitsToFloat(x)
                #define D_HI(x) (unpackDouble2x32(x).y)
                #define MSB32(x) findMSB(u32(x))
                #define POPC32(x) u32(bitCount(u32(x)))
                """);
        return s.toString();
    }

    @Override
    public String storageType(DType t) {
        return switch (t) {
            case PRED, U8 -> "uint8_t";
            case S8 -> "int8_t";
            case U16, F16, BF16 -> "uint16_t";
            case S16 -> "int16_t";
            case U32 -> "uint";
            case S32 -> "int";
            case U64 -> "uint64_t";
            case S64 -> "int64_t";
            case F32 -> "float";
            case F64 -> "double";
        };
    }

    @Override
    public String math(String fn, boolean f64) {
        if (!(f64 ? MATH_F64 : MATH_F32).contains(fn)) return null;
        return switch (fn) {
            case "rsqrt" -> "inversesqrt";
            case "exp" -> f64 ? GlslMath64.name(fn) : GlslExp.NAME; // the built-in is not accurate enough (GlslExp); GLSL has no double exp (GlslMath64)
            case "expm1", "log", "log1p", "sinh", "cosh", "tanh" -> f64 ? GlslMath64.name(fn) : GlslMath.name(fn); // likewise
            case "erf", "erfc", "asinh", "acosh", "atanh", "cbrt" -> GlslMath.name(fn);
            case "sin", "cos", "tan", "asin", "acos", "atan" -> f64 ? fn : GlslTrig.name(fn); // likewise (GlslTrig)
            case "fabs" -> "abs";
            default -> fn;
        };
    }

    /** Only {@code pow} ({@link GlslPow}): GLSL's {@code mod} and {@code atan(y, x)} leave the IEEE edge cases undefined. */
    @Override public String math2(String fn, boolean f64) { return fn.equals("pow") ? GlslPow.name(f64) : null; }

    /**
     * Vulkan lets f32 division be 2.5 ulp off, and NVIDIA's driver takes that freedom (a reciprocal
     * and a multiply: 2.5/1.5 is one ulp off, 255/3.4e38 is 0). A double quotient rounded to f32 is
     * the correctly rounded f32 quotient (53 ≥ 2·24 + 2 bits, so the double rounding is harmless),
     * so that is how f32 divides where the device has f64.
     */
    @Override
    public String divide(boolean f64, boolean deviceHasFloat64, String a, String b) {
        return f64 || !deviceHasFloat64 ? "(" + a + " / " + b + ")" : "f32(f64(" + a + ") / f64(" + b + "))";
    }

    /**
     * GLSL has no erf, erfc and cbrt, and no accurate inverse hyperbolics: {@link GlslMath}'s are computed in double;
     * so is {@link GlslPow}'s pow.
     */
    @Override
    public boolean needsFloat64(String fn) {
        return switch (fn) {
            case "erf", "erfc", "asinh", "acosh", "atanh", "cbrt", "pow" -> true;
            default -> false;
        };
    }

    /** GLSL has no double-precision log; {@link GlslMath}'s double core is within a few double ulps, plenty for f32 results. */
    @Override public String log64() { return "jb_log_d"; }

    @Override public String f32Bits(int bits) { return String.format("uintBitsToFloat(0x%08xu)", bits); }

    @Override
    public String f64Bits(long bits) {
        return String.format("packDouble2x32(uvec2(0x%08xu, 0x%08xu))", (int) bits, (int) (bits >>> 32));
    }

    @Override
    public String int64Literal(long v, boolean unsigned) {
        return String.format("%s(0x%016xul)", unsigned ? "uint64_t" : "int64_t", v);
    }

    @Override
    public String open(String name, List<DType> inputs, DType out) {
        return inputDeclarations(inputs) + "layout(std430, binding = " + inputs.size() + ") writeonly buffer Out { "
                + storageType(out) + " d[]; } bout;\n" + elementFrame();
    }

    private String inputDeclarations(List<DType> inputs) {
        StringBuilder s = new StringBuilder();
        for (int k = 0; k < inputs.size(); k++) {
            s.append("layout(std430, binding = ").append(k).append(") readonly buffer In").append(k)
                    .append(" { ").append(storageType(inputs.get(k))).append(" d[]; } b").append(k).append(";\n");
        }
        return s.toString();
    }

    /** The push constant {@code n} and {@code main} up to the body: element {@code i}, returning past {@code n}. */
    private static String elementFrame() {
        return "layout(push_constant) uniform Params { uint n; } pc;\n"
                + "void main() {\n"
                + "  idx_t i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;\n"
                + "  if (i >= pc.n) return;\n  {\n";
    }

    /**
     * {@link #open} for a kernel of several outputs: output {@code j} is buffer {@code boutj} at binding
     * {@code inputs.size() + j} (write it with {@link #writeOutput}).
     */
    String openOutputs(List<DType> inputs, List<DType> outs) {
        StringBuilder s = new StringBuilder(inputDeclarations(inputs));
        for (int j = 0; j < outs.size(); j++) {
            s.append("layout(std430, binding = ").append(inputs.size() + j).append(") writeonly buffer Out").append(j).append(" { ")
                    .append(storageType(outs.get(j))).append(" d[]; } bout").append(j).append(";\n");
        }
        return s + elementFrame();
    }

    /** Stores {@code value} at {@code index} of output {@code j} of a kernel opened by {@link #openOutputs}. */
    String writeOutput(int j, String index, String value) { return "bout" + j + ".d[" + index + "] = " + value + ";"; }

    @Override public String close() { return "  }\n}\n"; }

    @Override
    public String openReduction(String name, List<DType> inputs, DType out, String acc) {
        String head = open(name, inputs, out);
        head = head.substring(0, head.indexOf("void main()"));
        return head + "shared " + acc + " sh[256];\n"
                + "void main() {\n"
                + "  idx_t o = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;\n"
                + "  if (o >= pc.n) return;\n"
                + "  u32 t = gl_LocalInvocationID.x;\n  {\n";
    }

    @Override public String closeReduction() { return "  }\n}\n"; }

    @Override public String barrier() { return "memoryBarrierShared(); barrier();"; }

    @Override public String read(int k, String index) { return "b" + k + ".d[" + index + "]"; }

    @Override public String write(int outBinding, String index, String value) { return "bout.d[" + index + "] = " + value + ";"; }

    @Override public String toStorage(DType t, String value) { return storageType(t) + "(" + value + ")"; }
}
