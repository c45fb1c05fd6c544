package dev.jburn.vulkan;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a main class of these tests in a child JVM (its own environment, its own Vulkan loader state). */
final class ChildJvm {
    private ChildJvm() {}

    /** What the child printed (stdout and stderr together) and its exit status. */
    record Result(int exitCode, String output) {}

    static Result run(Class<?> main, Map<String, String> env, List<String> jvmProps, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--add-modules=jdk.incubator.vector");
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.addAll(jvmProps);
        cmd.add("-cp");
        cmd.add(classPath());
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(main.getSimpleName() + " did not finish:\n" + out);
        }
        return new Result(p.exitValue(), out);
    }

    /** This JVM's class path, plus the jars of a launcher's class loader (the JUnit console launcher's {@code -cp}). */
    static String classPath() {
        StringBuilder cp = new StringBuilder(System.getProperty("java.class.path"));
        if (ChildJvm.class.getClassLoader() instanceof URLClassLoader u) {
            for (URL url : u.getURLs()) {
                try {
                    cp.append(File.pathSeparator).append(Path.of(url.toURI()));
                } catch (URISyntaxException | IllegalArgumentException e) {
                    // not a file: cannot be on a child's class path
                }
            }
        }
        return cp.toString();
    }
}
