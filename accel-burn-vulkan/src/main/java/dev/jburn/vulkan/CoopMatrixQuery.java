package dev.jburn.vulkan;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkCooperativeMatrixPropertiesKHR;
import org.lwjgl.vulkan.VkPhysicalDevice;
import org.lwjgl.vulkan.VkPhysicalDeviceCooperativeMatrixFeaturesKHR;
import org.lwjgl.vulkan.VkPhysicalDeviceCooperativeMatrixPropertiesKHR;
import org.lwjgl.vulkan.VkPhysicalDeviceFeatures2;
import org.lwjgl.vulkan.VkPhysicalDeviceProperties2;
import org.lwjgl.vulkan.VkPhysicalDeviceShaderBfloat16FeaturesKHR;
import org.lwjgl.vulkan.VkPhysicalDeviceSubgroupProperties;
import org.lwjgl.vulkan.VkPhysicalDeviceVulkanMemoryModelFeatures;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.lwjgl.vulkan.KHRCooperativeMatrix.VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME;
import static org.lwjgl.vulkan.KHRCooperativeMatrix.vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR;
import static org.lwjgl.vulkan.KHRShaderBfloat16.VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME;
import static org.lwjgl.vulkan.VK10.VK_SHADER_STAGE_COMPUTE_BIT;
import static org.lwjgl.vulkan.VK10.VK_SUCCESS;
import static org.lwjgl.vulkan.VK11.vkGetPhysicalDeviceFeatures2;
import static org.lwjgl.vulkan.VK11.vkGetPhysicalDeviceProperties2;

/**
 * Queries {@code VK_KHR_cooperative_matrix} (and {@code VK_KHR_shader_bfloat16} for bf16 matrices)
 * on a physical device, and adds what it found to the device's creation: the extension names and
 * the feature structs. Feature structs of an extension are chained only when the extension is
 * listed, so a device without it sees exactly the creation it saw before.
 */
final class CoopMatrixQuery {
    private CoopMatrixQuery() {}

    /** What the device offers; {@link CoopMatrixSupport#NONE} when {@code wanted} is false ({@code -Djburn.vulkan.coopMatrix=false}). */
    static CoopMatrixSupport query(VkPhysicalDevice pd, boolean wanted) {
        if (!wanted) return CoopMatrixSupport.NONE;
        try (MemoryStack stack = MemoryStack.stackPush()) {
            List<String> ext = VulkanExtensions.device(pd);
            if (!ext.contains(VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME)) return CoopMatrixSupport.NONE;
            boolean bfExt = ext.contains(VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME);
            VkPhysicalDeviceCooperativeMatrixFeaturesKHR coop = VkPhysicalDeviceCooperativeMatrixFeaturesKHR.calloc(stack).sType$Default();
            VkPhysicalDeviceVulkanMemoryModelFeatures mm = VkPhysicalDeviceVulkanMemoryModelFeatures.calloc(stack).sType$Default();
            VkPhysicalDeviceShaderBfloat16FeaturesKHR bf = VkPhysicalDeviceShaderBfloat16FeaturesKHR.calloc(stack).sType$Default();
            VkPhysicalDeviceFeatures2 f = VkPhysicalDeviceFeatures2.calloc(stack).sType$Default().pNext(coop).pNext(mm);
            if (bfExt) f.pNext(bf);
            vkGetPhysicalDeviceFeatures2(pd, f);
            VkPhysicalDeviceCooperativeMatrixPropertiesKHR cp = VkPhysicalDeviceCooperativeMatrixPropertiesKHR.calloc(stack).sType$Default();
            VkPhysicalDeviceSubgroupProperties sg = VkPhysicalDeviceSubgroupProperties.calloc(stack).sType$Default();
            VkPhysicalDeviceProperties2 props = VkPhysicalDeviceProperties2.calloc(stack).sType$Default().pNext(cp).pNext(sg);
            vkGetPhysicalDeviceProperties2(pd, props);
            boolean compute = (cp.cooperativeMatrixSupportedStages() & VK_SHADER_STAGE_COMPUTE_BIT) != 0;
            if (!coop.cooperativeMatrix() || !mm.vulkanMemoryModel() || !compute) return CoopMatrixSupport.NONE;
            boolean bf16 = bfExt && bf.shaderBFloat16Type() && bf.shaderBFloat16CooperativeMatrix();
            return new CoopMatrixSupport(true, bf16, sg.subgroupSize(), props.properties().limits().maxComputeSharedMemorySize(),
                    configs(pd, stack));
        } catch (RuntimeException e) {
            // A loader without the physical-device entry point (LWJGL then finds no function): no coopmat, not no engine.
            return CoopMatrixSupport.NONE;
        }
    }

    private static List<CoopMatrixSupport.Config> configs(VkPhysicalDevice pd, MemoryStack stack) {
        IntBuffer n = stack.mallocInt(1);
        if (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(pd, n, null) != VK_SUCCESS || n.get(0) == 0) return List.of();
        // On the heap: the H200's driver lists enough configurations to overflow LWJGL's stack ("Out of stack space").
        VkCooperativeMatrixPropertiesKHR.Buffer props = VkCooperativeMatrixPropertiesKHR.calloc(n.get(0));
        try {
            for (int i = 0; i < n.get(0); i++) props.get(i).sType$Default();
            if (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR(pd, n, props) != VK_SUCCESS) return List.of();
            List<CoopMatrixSupport.Config> out = new ArrayList<>();
            for (int i = 0; i < n.get(0); i++) {
                VkCooperativeMatrixPropertiesKHR p = props.get(i);
                out.add(new CoopMatrixSupport.Config(p.MSize(), p.NSize(), p.KSize(), p.AType(), p.BType(), p.CType(), p.ResultType(),
                        p.saturatingAccumulation(), p.scope()));
            }
            return List.copyOf(out);
        } finally {
            props.free();
        }
    }

    /** The device extensions to enable for {@code s} (none when it is not enabled). */
    static List<String> extensionNames(CoopMatrixSupport s) {
        if (!s.enabled()) return List.of();
        return s.bfloat16() ? List.of(VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME, VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME)
                : List.of(VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME);
    }

    /** Chains the features {@code s} needs into the device's {@code enable} chain. */
    static void enable(VkPhysicalDeviceFeatures2 enable, CoopMatrixSupport s, MemoryStack stack) {
        if (!s.enabled()) return;
        enable.pNext(VkPhysicalDeviceCooperativeMatrixFeaturesKHR.calloc(stack).sType$Default().cooperativeMatrix(true));
        enable.pNext(VkPhysicalDeviceVulkanMemoryModelFeatures.calloc(stack).sType$Default().vulkanMemoryModel(true));
        if (s.bfloat16()) {
            enable.pNext(VkPhysicalDeviceShaderBfloat16FeaturesKHR.calloc(stack).sType$Default()
                    .shaderBFloat16Type(true).shaderBFloat16CooperativeMatrix(true));
        }
    }
}
