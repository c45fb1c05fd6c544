package dev.jburn.vulkan;

import dev.jburn.DType;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What {@code VK_KHR_cooperative_matrix} offers on this device: whether the extension and its
 * feature were enabled, the matrix configurations {@code vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR}
 * lists, and the subgroup size the GEMM's work groups are built from. Kept apart from the device
 * query so that the choice of a configuration ({@link #gemmConfig}) is tested without such a device
 * (lavapipe has none).
 *
 * @param enabled      the extension is present, {@code cooperativeMatrix} and {@code vulkanMemoryModel}
 *                     (which every coopmat shader's SPIR-V declares) are on, and compute shaders may use it
 * @param bfloat16     {@code VK_KHR_shader_bfloat16} with {@code shaderBFloat16CooperativeMatrix} is on too
 * @param subgroupSize the device's subgroup size ({@code VkPhysicalDeviceSubgroupProperties}); 32 on NVIDIA
 * @param maxSharedBytes {@code maxComputeSharedMemorySize}: the GEMM's staged tiles must fit (Vulkan promises only 16 KB)
 * @param configs      every configuration the driver listed, as listed
 */
record CoopMatrixSupport(boolean enabled, boolean bfloat16, int subgroupSize, int maxSharedBytes, List<Config> configs) {
    /** Vulkan's {@code VkComponentTypeKHR} values used here, and {@code VK_SCOPE_SUBGROUP_KHR}. */
    static final int FLOAT16 = 0, FLOAT32 = 1, BFLOAT16 = 1000141000, SCOPE_SUBGROUP = 3;

    /** None: the extension is missing, or disabled. */
    static final CoopMatrixSupport NONE = new CoopMatrixSupport(false, false, 0, 0, List.of());

    /** One {@code VkCooperativeMatrixPropertiesKHR}: {@code C[m,n] (+)= A[m,k]·B[k,n]} with these component types. */
    record Config(int m, int n, int k, int aType, int bType, int cType, int resultType, boolean saturating, int scope) {
        String describe() { return m + "x" + n + "x" + k + " " + typeName(aType) + "->" + typeName(resultType); }
    }

    /** The component type of a GEMM input of dtype {@code t}, or -1 when coopmat has none for it here. */
    int componentType(DType t) {
        return switch (t) {
            case F16 -> FLOAT16;
            case BF16 -> bfloat16 ? BFLOAT16 : -1;
            default -> -1;
        };
    }

    /**
     * The configuration the GEMM of {@code input} uses: A and B of that type, C and the result f32
     * (the cuda engine's f16/bf16 GEMMs accumulate in f32 too), subgroup scope, not saturating, and
     * sizes the shader can stage ({@link #stageable}); 16×16×16 when listed (NVIDIA lists it), else
     * the listed one nearest to it. Empty when there is none: the dot then falls back.
     */
    Optional<Config> gemmConfig(DType input) {
        int type = componentType(input);
        if (!enabled || type < 0 || subgroupSize <= 0) return Optional.empty();
        return configs.stream()
                .filter(c -> c.aType() == type && c.bType() == type && c.cType() == FLOAT32 && c.resultType() == FLOAT32)
                .filter(c -> c.scope() == SCOPE_SUBGROUP && !c.saturating() && stageable(c))
                .filter(c -> CoopMatGemmShader.Tiling.of(c).sharedBytes() <= maxSharedBytes)
                .min(Comparator.comparingInt((Config c) -> Math.abs(c.m() - 16) + Math.abs(c.n() - 16) + Math.abs(c.k() - 16)));
    }

    /**
     * Whether {@link CoopMatGemmShader} can tile with these sizes: it stages A and B in shared memory as
     * {@code uvec4}s of eight 16-bit values, so a tile's rows start on whole {@code uvec4}s only when
     * {@code k} and {@code n} are multiples of 8, and its work-group tile is built for sizes up to 64.
     */
    static boolean stageable(Config c) {
        return c.m() > 0 && c.m() <= 64 && c.n() % 8 == 0 && c.n() > 0 && c.n() <= 64 && c.k() % 8 == 0 && c.k() > 0 && c.k() <= 64;
    }

    /** For logs: {@code coopmat: 16x16x16 f16->f32, ...} or why there is none. */
    String describe() {
        if (!enabled) return "no VK_KHR_cooperative_matrix";
        StringBuilder b = new StringBuilder("VK_KHR_cooperative_matrix (subgroup ").append(subgroupSize)
                .append(bfloat16 ? ", bf16" : ", no bf16").append("):");
        for (Config c : configs) b.append(' ').append(c.describe()).append(c.scope() == SCOPE_SUBGROUP ? "" : "(scope " + c.scope() + ")").append(',');
        if (!configs.isEmpty()) b.setLength(b.length() - 1);
        return b.toString();
    }

    static String typeName(int t) {
        return switch (t) {
            case FLOAT16 -> "f16";
            case FLOAT32 -> "f32";
            case 2 -> "f64";
            case 3 -> "s8";
            case 4 -> "s16";
            case 5 -> "s32";
            case 6 -> "s64";
            case 7 -> "u8";
            case 8 -> "u16";
            case 9 -> "u32";
            case 10 -> "u64";
            case BFLOAT16 -> "bf16";
            default -> "type" + t;
        };
    }
}
