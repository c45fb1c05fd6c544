package dev.jburn.vulkan;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Why {@code vkCreateInstance} answered {@code VK_ERROR_INCOMPATIBLE_DRIVER}: the loader gives that
 * code both when it finds no driver at all (a headless machine, a container without the GPU's
 * files) and when the drivers it finds do not support the API version. This reads the driver
 * manifests (ICDs) where the Linux loader looks, so the message says which one is true.
 */
final class VulkanDrivers {
    private VulkanDrivers() {}

    /** The loader's search folders for driver manifests on Linux (besides the environment overrides). */
    private static final List<String> ICD_FOLDERS = List.of("/usr/share/vulkan/icd.d", "/usr/local/share/vulkan/icd.d",
            "/etc/vulkan/icd.d", System.getProperty("user.home") + "/.local/share/vulkan/icd.d");

    /** The reason to give for {@code VK_ERROR_INCOMPATIBLE_DRIVER} from {@code vkCreateInstance}. */
    static String incompatibleDriverReason(String apiVersion) {
        List<Path> manifests = manifests();
        if (manifests.isEmpty()) {
            return "no Vulkan driver found (the loader found no driver manifest" + where()
                    + "; install your GPU's Vulkan driver, or mesa-vulkan-drivers for lavapipe on the CPU)";
        }
        return "no Vulkan driver here supports Vulkan " + apiVersion + " (drivers found: " + manifests + ")";
    }

    private static String where() {
        String env = override();
        return env != null ? " in " + env : " in " + String.join(", ", ICD_FOLDERS);
    }

    /** {@code VK_DRIVER_FILES} (or the older {@code VK_ICD_FILENAMES}) replaces the search folders. */
    private static String override() {
        for (String var : new String[] {"VK_DRIVER_FILES", "VK_ICD_FILENAMES"}) {
            String v = System.getenv(var);
            if (v != null && !v.isBlank()) return var + "=" + v;
        }
        return null;
    }

    private static List<Path> manifests() {
        List<Path> out = new ArrayList<>();
        String env = override();
        if (env != null) {
            for (String f : env.substring(env.indexOf('=') + 1).split(":")) {
                if (!f.isBlank()) addJson(Path.of(f), out);
            }
            return out;
        }
        for (String folder : ICD_FOLDERS) addJson(Path.of(folder), out);
        return out;
    }

    private static void addJson(Path p, List<Path> out) {
        try {
            if (Files.isRegularFile(p)) {
                out.add(p);
            } else if (Files.isDirectory(p)) {
                try (var files = Files.list(p)) {
                    files.filter(f -> f.toString().endsWith(".json")).forEach(out::add);
                }
            }
        } catch (java.io.IOException | SecurityException e) {
            // An unreadable folder holds no manifest the loader could read either.
        }
    }
}
