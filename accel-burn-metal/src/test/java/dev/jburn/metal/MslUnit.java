package dev.jburn.metal;

import dev.jburn.DType;
import dev.jburn.kernels.Dialect;
import dev.jburn.kernels.HostBlock;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Many generated kernels as one C++ translation unit, so one clang run checks or builds them all:
 * kernel {@code i} goes into {@code namespace k<i>} with its entry renamed {@code <entry>_<i>} (the
 * shim's {@code kernel} is {@code extern "C"}, whose names must be unique). Otherwise each source is
 * exactly what the emitter wrote. With drivers, each namespace also gets
 * {@code extern "C" void run_<i>(void** buffers, unsigned n, unsigned groups)}, which runs the kernel's
 * whole grid on the CPU (a reduction's groups one at a time, each as 256 fibers meeting at barriers).
 */
final class MslUnit {
    final StringBuilder text = new StringBuilder();
    private final List<Integer> startLine = new ArrayList<>();
    private final List<String> labels = new ArrayList<>();
    private int lines;

    MslUnit(boolean drivers) {
        // Standard headers before the shim, whose last line makes `double` an error.
        append(drivers ? DRIVER_PRELUDE : "#include <metal_stdlib>\n");
    }

    /**
     * The host side of a group: its 256 threads as fibers run in turns by one host thread, meeting at
     * barriers ({@link HostBlock}); the shim's barrier calls it only while a group runs.
     */
    private static final String DRIVER_PRELUDE = HostBlock.runtime(256) + """
            #include <metal_stdlib>
            template <class Body> static void jb_run_metal_group(Body body) {
              metal::jb_group_barrier = jb_barrier;
              jb_run_group(body);
              metal::jb_group_barrier = nullptr;
            }
            """;

    private void append(String s) {
        text.append(s);
        for (int i = 0; i < s.length(); i++) if (s.charAt(i) == '\n') lines++;
    }

    /** Adds kernel {@code i}'s source, its driver when {@code driver}. */
    void add(String label, MslCase c, boolean driver) {
        int i = labels.size();
        labels.add(label);
        startLine.add(lines + 1);
        String entry = c.source().entry();
        String code = c.source().code().replaceAll("\\b" + entry + "\\b", entry + "_" + i);
        append("namespace k" + i + " {\n" + code + (code.endsWith("\n") ? "" : "\n"));
        if (driver) append(driver(c, entry + "_" + i, i));
        append("}  // namespace k" + i + "\n");
    }

    private static String driver(MslCase c, String entry, int i) {
        StringBuilder args = new StringBuilder();
        List<DType> ins = c.source().inputTypes();
        for (int k = 0; k < ins.size(); k++) {
            // not const: a kernel's scratch buffers are inputs it writes (a non-const pointer passes to a const parameter too)
            args.append("(device ").append(Dialect.METAL.storageType(ins.get(k))).append("*)b[").append(k).append("], ");
        }
        args.append("(device ").append(Dialect.METAL.storageType(c.source().outType())).append("*)b[").append(ins.size()).append("], nn");
        StringBuilder s = new StringBuilder("extern \"C\" void run_").append(i).append("(void** b, unsigned n, unsigned groups) {\n");
        s.append("  uint nn = n;\n");
        if (!c.grouped()) {
            s.append("  for (uint g = 0; g <= n; g++) ").append(entry).append("(").append(args).append(", g);\n");
        } else {
            s.append("  for (uint o = 0; o < groups; o++) jb_run_metal_group([&](uint t) { ").append(entry).append("(").append(args).append(", o, t); });\n");
        }
        return s.append("}\n").toString();
    }

    /** The label of the kernel at {@code line} of {@link #text}, or null before the first. */
    String labelAt(int line) {
        String l = null;
        for (int i = 0; i < startLine.size() && startLine.get(i) <= line; i++) l = labels.get(i);
        return l;
    }

    private static final Pattern DIAGNOSTIC = Pattern.compile("^[^:\\s]+:(\\d+):\\d+: (error|fatal error): (.*)$", Pattern.MULTILINE);

    /** The compiler's errors, each prefixed with the kernel it is in; empty when none. */
    List<String> errors(String log) {
        List<String> out = new ArrayList<>();
        Matcher m = DIAGNOSTIC.matcher(log);
        while (m.find()) out.add(labelAt(Integer.parseInt(m.group(1))) + ": " + m.group(3));
        return out;
    }

    int size() { return labels.size(); }
}
