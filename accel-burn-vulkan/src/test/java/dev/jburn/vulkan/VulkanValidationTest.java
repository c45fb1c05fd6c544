package dev.jburn.vulkan;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The engine's Vulkan usage is valid: {@link ValidationWorkload} runs in a child JVM under the
 * Khronos validation layer (package {@code vulkan-validationlayers}) with synchronization
 * validation on, and the layer must report nothing, once through host-visible memory and once
 * through staging buffers. A deliberately invalid call shows that reports would be seen. Skipped
 * where the layer or a Vulkan device is missing.
 */
class VulkanValidationTest {
    private static Path settings;

    @BeforeAll
    static void requireLayer() throws Exception {
        TestDevice.require();
        assumeTrue(Files.exists(Path.of("/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json")),
                "no Khronos validation layer (apt-get install vulkan-validationlayers)");
        settings = Files.createTempFile("vk_layer_settings", ".txt");
        settings.toFile().deleteOnExit();
        Files.writeString(settings, """
                khronos_validation.report_flags = error,warn
                khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG
                khronos_validation.log_filename = stdout
                khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT,VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT
                """);
    }

    private static ChildJvm.Result underValidation(List<String> props, String... args) throws Exception {
        Map<String, String> env = Map.of("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation",
                "VK_LAYER_SETTINGS_PATH", settings.toString(), "VK_LOADER_DEBUG", "layer");
        ChildJvm.Result r = ChildJvm.run(ValidationWorkload.class, env, props, args);
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("WORKLOAD done"), r.output());
        assertTrue(r.output().contains("Insert instance layer \"VK_LAYER_KHRONOS_validation\""), "the layer was not loaded:\n" + r.output());
        return r;
    }

    private static List<String> reports(String output) {
        return output.lines().filter(l -> l.contains("Validation Error") || l.contains("Validation Warning") || l.contains("SYNC-HAZARD"))
                .collect(Collectors.toList());
    }

    @Test
    void theWorkloadIsValidThroughMappedMemory() throws Exception {
        ChildJvm.Result r = underValidation(List.of());
        assertEquals(List.of(), reports(r.output()), r.output());
    }

    @Test
    void theWorkloadIsValidThroughStagingBuffers() throws Exception {
        ChildJvm.Result r = underValidation(List.of("-Djburn.vulkan.forceStaging=true"));
        assertEquals(List.of(), reports(r.output()), r.output());
    }

    @Test
    void anInvalidCallIsReported() throws Exception {
        ChildJvm.Result r = underValidation(List.of(), "invalid");
        assertTrue(reports(r.output()).stream().anyMatch(l -> l.contains("VUID-VkBufferCreateInfo-size-00912")), r.output());
    }
}
