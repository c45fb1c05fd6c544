package dev.jburn.nn;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The table {@link Model#summary} prints. */
final class Summary {
    private Summary() {}

    static String of(Model model, ModelState state) {
        List<Model.LayerInfo> layers = model.layers();
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"Layer", "Kind", "Output shape", "Params", "Inputs"});
        for (Model.LayerInfo l : layers) {
            rows.add(new String[] {l.name(), l.kind(), l.output().dtype().shortName() + l.output().shape(),
                    group(l.parameterCount()), String.join(", ", l.sources())});
        }
        int[] w = new int[5];
        for (String[] r : rows) for (int i = 0; i < 5; i++) w[i] = Math.max(w[i], r[i].length());
        StringBuilder sb = new StringBuilder();
        sb.append("Model: ").append(model.name()).append('\n');
        String rule = "-".repeat(w[0] + w[1] + w[2] + w[3] + w[4] + 8);
        sb.append(rule).append('\n');
        for (int k = 0; k < rows.size(); k++) {
            String[] r = rows.get(k);
            sb.append(pad(r[0], w[0])).append("  ").append(pad(r[1], w[1])).append("  ").append(pad(r[2], w[2])).append("  ")
                    .append(padLeft(r[3], w[3])).append("  ").append(r[4]).append('\n');
            if (k == 0) sb.append(rule).append('\n');
        }
        sb.append(rule).append('\n');
        long total = 0, totalBytes = 0, frozen = 0, frozenBytes = 0;
        for (var e : model.parameterSpecs().entrySet()) {
            total += e.getValue().size();
            totalBytes += e.getValue().bytes();
            if (state != null && state.frozen().contains(e.getKey())) {
                frozen += e.getValue().size();
                frozenBytes += e.getValue().bytes();
            }
        }
        long stateCount = 0, stateBytes = 0;
        for (ParamSpec s : model.stateSpecs().values()) {
            stateCount += s.size();
            stateBytes += s.bytes();
        }
        sb.append("Total params: ").append(group(total)).append(" (").append(bytes(totalBytes)).append(")\n");
        sb.append("Trainable params: ").append(group(total - frozen)).append(" (").append(bytes(totalBytes - frozenBytes)).append(")\n");
        sb.append("Frozen params: ").append(group(frozen)).append(" (").append(bytes(frozenBytes)).append(")\n");
        sb.append("Non-trainable state: ").append(group(stateCount)).append(" (").append(bytes(stateBytes)).append(")\n");
        return sb.toString();
    }

    static String group(long n) { return String.format(Locale.ROOT, "%,d", n); }

    static String bytes(long b) {
        if (b < 1024) return b + " B";
        if (b < 1024 * 1024) return String.format(Locale.ROOT, "%.2f KiB", b / 1024.0);
        if (b < 1024L * 1024 * 1024) return String.format(Locale.ROOT, "%.2f MiB", b / (1024.0 * 1024));
        return String.format(Locale.ROOT, "%.2f GiB", b / (1024.0 * 1024 * 1024));
    }

    private static String pad(String s, int w) { return s + " ".repeat(w - s.length()); }

    private static String padLeft(String s, int w) { return " ".repeat(w - s.length()) + s; }
}
