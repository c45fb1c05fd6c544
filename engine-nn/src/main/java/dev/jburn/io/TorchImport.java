package dev.jburn.io;

import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Layer;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.nn.ParamSpec;
import dev.jburn.nn.layers.BatchNorm;
import dev.jburn.nn.layers.Conv;
import dev.jburn.nn.layers.Dense;
import dev.jburn.nn.layers.Embedding;
import dev.jburn.nn.layers.Flatten;
import dev.jburn.nn.layers.Gru;
import dev.jburn.nn.layers.LayerNorm;
import dev.jburn.nn.layers.Lstm;
import dev.jburn.nn.layers.MultiHeadAttention;

import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PyTorch weights into a JBurn model: reads a safetensors file of a PyTorch {@code state_dict()} (the
 * Hugging Face {@code safetensors.torch.save_file} layout, or any writer of the format) and makes a
 * {@link ModelState} of {@code model}, converting each layer's tensors from PyTorch's layout:
 *
 * <table>
 * <caption>conversions, PyTorch module → JBurn layer</caption>
 * <tr><th>PyTorch</th><th>JBurn</th><th>conversion</th></tr>
 * <tr><td>{@code Linear}: {@code weight [out, in]}, {@code bias}</td><td>{@link Dense}</td><td>{@code kernel = weightᵀ};
 *     a dense layer fed by a {@link Flatten} of a channels-last map {@code [b, spatial..., C]} made by a spatial layer
 *     (conv, pool) also reorders its input features from PyTorch's flattening order {@code (C, spatial...)} to JBurn's
 *     {@code (spatial..., C)}; a flattened sequence or input keeps its order</td></tr>
 * <tr><td>{@code ConvNd}: {@code weight [out, in/groups, k...]}</td><td>{@link Conv}</td><td>{@code kernel = weight}
 *     permuted to {@code [k..., in/groups, out]} (spatial first, HWIO); JBurn's input is channels-last unless the
 *     layer is {@code withChannelsFirst}</td></tr>
 * <tr><td>{@code BatchNormNd}: {@code weight, bias, running_mean, running_var}</td><td>{@link BatchNorm}</td>
 *     <td>{@code gamma, beta}, state {@code mean, var}; {@code num_batches_tracked} is dropped (give the layer
 *     PyTorch's epsilon, {@code withEpsilon(1e-5)})</td></tr>
 * <tr><td>{@code LayerNorm}: {@code weight, bias}</td><td>{@link LayerNorm}</td><td>{@code gamma, beta}</td></tr>
 * <tr><td>{@code Embedding}: {@code weight}</td><td>{@link Embedding}</td><td>{@code kernel}, as it is</td></tr>
 * <tr><td>{@code LSTM}, {@code GRU} ({@code batch_first}): {@code weight_ih_l0}, ..., {@code *_reverse}</td>
 *     <td>{@link Lstm}, {@link Gru}</td><td>as they are (JBurn keeps PyTorch's gate order and stacking);
 *     one JBurn layer per PyTorch layer: map it to {@code "rnn"} for layer 0, {@code "rnn[1]"} for layer 1</td></tr>
 * <tr><td>{@code MultiheadAttention} ({@code batch_first}): {@code in_proj_weight [3E, E]} (or
 *     {@code q_proj_weight}, {@code k_proj_weight}, {@code v_proj_weight}), {@code in_proj_bias},
 *     {@code out_proj.weight}, {@code out_proj.bias}</td><td>{@link MultiHeadAttention}</td><td>the projection split
 *     in three and each transposed: {@code query_kernel = in_proj_weight[0:E]ᵀ}, ...,
 *     {@code output_kernel = out_proj.weightᵀ}</td></tr>
 * </table>
 *
 * <pre>{@code
 * // torch: nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(5408, 10))
 * Model m = Model.input("image", Shape.of(-1, 28, 28, 1)).conv2d(32, 3, Activation.RELU).maxPool2d(2).flatten().dense(10);
 * ModelState s = TorchImport.load(Path.of("model.safetensors"), m, Map.of("conv2d_0", "0", "dense_0", "4"));
 * Tensor logits = m.predict(s, imagesNhwc);                       // PyTorch's logits, images channels-last
 * }</pre>
 *
 * {@code layers} maps each JBurn layer that has parameters or state to the PyTorch module prefix of its
 * tensors ({@code "features.0"}; {@code ""} for a file of one module's own tensors). Every such layer must be
 * mapped and every tensor of the file used ({@code num_batches_tracked} aside), so a wrong mapping fails
 * with a {@link JBurnException} (op {@code "torch import"}) naming the tensors and shapes, never silently.
 * Tensors of another float type are cast to the parameter's type. The state has no frozen parameters.
 */
public final class TorchImport {
    private TorchImport() {}

    private static final String OP = "torch import";
    private static final Pattern LAYER_INDEX = Pattern.compile("(.*)\\[(\\d+)]");

    /** The state of {@code model} from the PyTorch tensors in {@code file}, by the mapping {@code layers} (JBurn layer → PyTorch prefix). */
    public static ModelState load(Path file, Model model, Map<String, String> layers) {
        if (file == null || model == null || layers == null) throw new JBurnException(OP, "the file, the model and the layer mapping are required");
        return convert(SafeTensors.read(file), model, layers, file.toString());
    }

    /** {@link #load} from tensors already read ({@code SafeTensors.read}, or made in code), named as PyTorch names them. */
    public static ModelState convert(Map<String, Tensor> torch, Model model, Map<String, String> layers) {
        if (torch == null || model == null || layers == null) throw new JBurnException(OP, "the tensors, the model and the layer mapping are required");
        return convert(torch, model, layers, "the tensors");
    }

    private static ModelState convert(Map<String, Tensor> torch, Model model, Map<String, String> layers, String source) {
        Map<String, Model.LayerInfo> byName = new LinkedHashMap<>();
        for (Model.LayerInfo l : model.layers()) byName.put(l.name(), l);
        for (String name : layers.keySet()) {
            if (!byName.containsKey(name)) throw new JBurnException(OP, "model '" + model.name() + "' has no layer '" + name + "'; it has " + byName.keySet());
        }
        Set<String> unused = new LinkedHashSet<>(torch.keySet());
        Map<String, Tensor> params = new LinkedHashMap<>(), state = new LinkedHashMap<>();
        for (Model.LayerInfo l : byName.values()) {
            if (l.params().isEmpty() && l.state().isEmpty()) continue;
            String prefix = layers.get(l.name());
            if (prefix == null) {
                throw new JBurnException(OP, "layer '" + l.name() + "' (" + l.kind() + ") has parameters but no PyTorch module in the mapping " + layers);
            }
            Source src = new Source(torch, unused, prefix, source, l);
            Map<String, Tensor> converted = layer(l, byName, src);
            for (ParamSpec p : l.params()) params.put(l.name() + "." + p.name(), fit(converted, p, l, src));
            for (ParamSpec p : l.state()) state.put(l.name() + "." + p.name(), fit(converted, p, l, src));
        }
        unused.removeIf(n -> n.endsWith("num_batches_tracked"));
        if (!unused.isEmpty()) throw new JBurnException(OP, source + " has tensors that no mapped layer uses: " + unused + "; mapping " + layers);
        return model.stateOf(params, state, Set.of());
    }

    /** The layer's tensors under JBurn's local names, converted. */
    private static Map<String, Tensor> layer(Model.LayerInfo l, Map<String, Model.LayerInfo> all, Source s) {
        Layer layer = l.layer();
        Map<String, Tensor> out = new LinkedHashMap<>();
        switch (layer) {
            case Dense d -> {
                Tensor w = s.take("weight");
                int[] flattened = flattenedMap(l, all);
                out.put("kernel", flattened == null ? w.transpose() : toSpatialFirst(w.reshape(flattenedTorchShape(w, flattened))).reshape(w.shape().dim(1), d.units()));
                if (d.useBias()) out.put("bias", s.take("bias"));
            }
            case Conv c -> {
                out.put("kernel", toSpatialFirst(s.take("weight")));
                if (c.useBias()) out.put("bias", s.take("bias"));
            }
            case BatchNorm b -> {
                if (b.scale()) out.put("gamma", s.take("weight"));
                if (b.center()) out.put("beta", s.take("bias"));
                out.put("mean", s.take("running_mean"));
                out.put("var", s.take("running_var"));
            }
            case LayerNorm n -> {
                if (n.scale()) out.put("gamma", s.take("weight"));
                if (n.center()) out.put("beta", s.take("bias"));
            }
            case Embedding e -> out.put("kernel", s.take("weight"));
            case Lstm r -> recurrent(s, r.bidirectional(), r.useBias(), out);
            case Gru r -> recurrent(s, r.bidirectional(), r.useBias(), out);
            case MultiHeadAttention a -> attention(s, a, out);
            default -> throw new JBurnException(OP, "layer '" + l.name() + "' is a " + l.kind() + ", which TorchImport has no conversion for;"
                    + " it converts dense, conv, batch_norm, layer_norm, embedding, lstm, gru and multi_head_attention layers");
        }
        return out;
    }

    private static void recurrent(Source s, boolean bidirectional, boolean useBias, Map<String, Tensor> out) {
        for (String dir : bidirectional ? new String[] {"", "_reverse"} : new String[] {""}) {
            out.put("weight_ih" + dir, s.take("weight_ih_l" + s.layerIndex + dir));
            out.put("weight_hh" + dir, s.take("weight_hh_l" + s.layerIndex + dir));
            if (useBias) {
                out.put("bias_ih" + dir, s.take("bias_ih_l" + s.layerIndex + dir));
                out.put("bias_hh" + dir, s.take("bias_hh_l" + s.layerIndex + dir));
            }
        }
    }

    private static void attention(Source s, MultiHeadAttention a, Map<String, Tensor> out) {
        String[] names = {"query", "key", "value"};
        Tensor[] w = new Tensor[3], b = new Tensor[3];
        if (s.has("in_proj_weight")) {
            Tensor in = s.take("in_proj_weight");
            int e = in.shape().dim(0) / 3;
            for (int i = 0; i < 3; i++) w[i] = rows(in, i * e, e);
        } else {
            for (int i = 0; i < 3; i++) w[i] = s.take(names[i].charAt(0) + "_proj_weight");
        }
        if (a.useBias()) {
            Tensor in = s.take("in_proj_bias");
            int[] sizes = {w[0].shape().dim(0), w[1].shape().dim(0), w[2].shape().dim(0)};
            for (int i = 0, at = 0; i < 3; at += sizes[i], i++) b[i] = in.slice(new int[] {at}, new int[] {sizes[i]});
        }
        for (int i = 0; i < 3; i++) {
            out.put(names[i] + "_kernel", w[i].transpose());
            if (a.useBias()) out.put(names[i] + "_bias", b[i]);
        }
        out.put("output_kernel", s.take("out_proj.weight").transpose());
        if (a.useBias()) out.put("output_bias", s.take("out_proj.bias"));
    }

    private static Tensor rows(Tensor t, int from, int count) {
        return t.slice(new int[] {from, 0}, new int[] {count, t.shape().dim(1)});
    }

    /** {@code [out, in, k...]} (PyTorch's weight order) as {@code [k..., in, out]}. */
    private static Tensor toSpatialFirst(Tensor w) {
        int r = w.rank();
        int[] perm = new int[r];
        for (int i = 0; i < r - 2; i++) perm[i] = i + 2;
        perm[r - 2] = 1;
        perm[r - 1] = 0;
        return w.transpose(perm);
    }

    /** A Linear weight {@code [out, C·s...]} as {@code [out, C, s...]}, for a flattened {@code (spatial..., C)} map. */
    private static Shape flattenedTorchShape(Tensor w, int[] spatialThenChannels) {
        int[] dims = new int[spatialThenChannels.length + 1];
        dims[0] = w.shape().dim(0);
        dims[1] = spatialThenChannels[spatialThenChannels.length - 1];
        System.arraycopy(spatialThenChannels, 0, dims, 2, spatialThenChannels.length - 1);
        return Shape.of(dims);
    }

    /**
     * The {@code [spatial..., C]} dims of the channels-last map a dense layer's {@link Flatten} input flattens, or null
     * when the dense layer is not fed by a flatten of a rank ≥ 3 map made by a spatial layer, or that layer is
     * channels-first (PyTorch's order already).
     */
    private static int[] flattenedMap(Model.LayerInfo dense, Map<String, Model.LayerInfo> all) {
        if (dense.sources().size() != 1) return null;
        Model.LayerInfo f = all.get(dense.sources().getFirst());
        if (f == null || !(f.layer() instanceof Flatten) || f.inputs().getFirst().rank() < 3) return null;
        // The nearest spatial layer above decides (conv, pool, ...: they have a channelsFirst option); without one (a
        // flattened sequence [b, T, F], or an input flattened directly) both frameworks flatten in the same order.
        for (Model.LayerInfo up = all.get(f.sources().getFirst()); up != null && up.layer() != null; up = up.sources().size() == 1 ? all.get(up.sources().getFirst()) : null) {
            Boolean first = channelsFirst(up.layer());
            if (first == null) continue;
            if (first) return null;
            int[] d = f.inputs().getFirst().shape().dims();
            return java.util.Arrays.copyOfRange(d, 1, d.length);
        }
        return null;
    }

    /** A layer record's {@code channelsFirst} option, or null when it has none (spatial layers of {@code dev.jburn.nn.layers} have one). */
    private static Boolean channelsFirst(Layer l) {
        if (!l.getClass().isRecord()) return null;
        for (RecordComponent rc : l.getClass().getRecordComponents()) {
            if (rc.getName().equals("channelsFirst") && rc.getType() == boolean.class) {
                try {
                    return (Boolean) rc.getAccessor().invoke(l);
                } catch (ReflectiveOperationException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private static Tensor fit(Map<String, Tensor> converted, ParamSpec p, Model.LayerInfo l, Source s) {
        Tensor t = converted.get(p.name());
        String full = l.name() + "." + p.name();
        if (t == null) throw new JBurnException(OP, "no PyTorch tensor converts to '" + full + "' (" + p.dtype().shortName() + p.shape() + ")");
        if (!t.shape().equals(p.shape())) {
            throw new JBurnException(OP, "'" + full + "' is " + p.dtype().shortName() + p.shape() + ", but the PyTorch tensors of '" + s.prefix
                    + "' in " + s.source + " convert to " + t.dtype().shortName() + t.shape() + " (layer " + l.kind() + ", input " + l.inputs() + ")");
        }
        if (t.dtype() != p.dtype()) {
            if (!t.dtype().isFloat()) throw new JBurnException(OP, "'" + full + "' needs a float tensor, got " + t.dtype().shortName() + t.shape());
            t = t.asType(p.dtype());
        }
        return t;
    }

    /** The PyTorch tensors of one module: {@code prefix.name}, consumed as they are taken. */
    private static final class Source {
        final Map<String, Tensor> torch;
        final Set<String> unused;
        final String prefix, source;
        final int layerIndex;
        final Model.LayerInfo layer;

        Source(Map<String, Tensor> torch, Set<String> unused, String mapped, String source, Model.LayerInfo layer) {
            Matcher m = LAYER_INDEX.matcher(mapped);
            this.prefix = m.matches() ? m.group(1) : mapped;
            this.layerIndex = m.matches() ? Integer.parseInt(m.group(2)) : 0;
            this.torch = torch;
            this.unused = unused;
            this.source = source;
            this.layer = layer;
        }

        String full(String name) { return prefix.isEmpty() ? name : prefix + "." + name; }

        boolean has(String name) { return torch.containsKey(full(name)); }

        Tensor take(String name) {
            String n = full(name);
            Tensor t = torch.get(n);
            if (t == null) {
                List<String> near = new ArrayList<>();
                for (String k : torch.keySet()) if (prefix.isEmpty() || k.startsWith(prefix + ".")) near.add(k);
                throw new JBurnException(OP, "layer '" + layer.name() + "' (" + layer.kind() + ") needs the PyTorch tensor '" + n + "', which " + source
                        + " lacks; under '" + prefix + "' it has " + near);
            }
            unused.remove(n);
            return t;
        }
    }
}
