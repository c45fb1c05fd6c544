package dev.jburn.vulkan;

/**
 * Float-controls execution modes for a shader, requested through {@code GL_EXT_spirv_intrinsics}
 * where the device reports it may honour them. Without them the float behaviour at the edges is
 * the compiler's choice:
 * <ul>
 * <li>{@code DenormPreserve} (f32): graphics drivers commonly flush subnormals to zero, which the kit
 *     (and Nx on the cpu) does not; requested when {@code shaderDenormPreserveFloat32} is reported.
 *     NVIDIA's driver does not report it; the engine then measures and declares the flushing
 *     ({@link SubnormalProbe}).</li>
 * <li>{@code SignedZeroInfNanPreserve} (f32): without it a compiler may assume no value is ±Inf, NaN or
 *     −0, and fold accordingly: on the H200 {@code atanh(1)} computed as {@code x * +Inf} came out
 *     as 5.6e-45 and as 0.88 in two runs. Requested when {@code shaderSignedZeroInfNanPreserveFloat32}
 *     is reported (lavapipe does).</li>
 * </ul>
 * Only f32: glslang keeps one {@code spirv_execution_mode} per mode id, so a second width would
 * replace the first, and f32 is where these kernels' edge cases are.
 */
final class FloatControls {
    private FloatControls() {}

    /** SPIR-V ids (from the SPIR-V spec) of the capabilities and execution modes. */
    static final int DENORM_PRESERVE_CAPABILITY = 4464;
    static final int DENORM_PRESERVE_MODE = 4459;
    static final int SIGNED_ZERO_INF_NAN_PRESERVE_CAPABILITY = 4466;
    static final int SIGNED_ZERO_INF_NAN_PRESERVE_MODE = 4461;

    /** {@code glsl} with the modes {@code f} allows, declared after the {@code #version} line and before the first layout. */
    static String apply(String glsl, VulkanFeatures f) {
        StringBuilder modes = new StringBuilder();
        if (f.denormPreserve32()) mode(modes, DENORM_PRESERVE_CAPABILITY, DENORM_PRESERVE_MODE);
        if (f.infNanPreserve32()) mode(modes, SIGNED_ZERO_INF_NAN_PRESERVE_CAPABILITY, SIGNED_ZERO_INF_NAN_PRESERVE_MODE);
        if (modes.isEmpty()) return glsl;
        int version = glsl.indexOf('\n', glsl.indexOf("#version")) + 1;
        int body = glsl.indexOf("\nlayout(") + 1;
        if (version <= 0 || body <= version) return glsl;
        return glsl.substring(0, version) + "#extension GL_EXT_spirv_intrinsics : require\n"
                + glsl.substring(version, body) + modes + glsl.substring(body);
    }

    private static void mode(StringBuilder out, int capability, int mode) {
        out.append("spirv_execution_mode(capabilities = [").append(capability).append("], ").append(mode).append(", 32);\n");
    }
}
