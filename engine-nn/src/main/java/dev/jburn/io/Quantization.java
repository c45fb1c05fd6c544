package dev.jburn.io;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.nn.Layer;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.nn.ParamSpec;
import dev.jburn.nn.layers.Conv;
import dev.jburn.nn.layers.Dense;
import dev.jburn.nn.layers.Quantized;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Post-training quantization of a model and its state, for smaller files and memory: the result is
 * a model whose layers are wrapped in {@link Quantized} and a state holding the narrow tensors, which
 * {@link Model#predict} runs (widening them inside the compiled function) and {@link ModelFile} saves
 * and loads (as model file version 2).
 *
 * <ul>
 * <li>{@link DType#F16}, {@link DType#BF16}: every float parameter of every layer is stored in that
 *     type (half the bytes); the layers still compute in their declared type (f32) on the rounded
 *     weights, so predictions move only by the rounding, on every engine, and the outputs keep their
 *     type. (To compute in 16 bits as well, use the mixed-precision call of {@link Model#call}.)
 *     Batch-norm statistics (state) stay f32. A weight beyond the type's range is refused.</li>
 * <li>{@link DType#S8}: the kernels of {@link Dense} and {@link Conv} layers are stored as int8,
 *     symmetric per output channel ({@link #int8PerChannel}); biases, other layers and the state stay
 *     as they are. The int8 kernels and their scales are frozen in the returned state: they are
 *     integers and not meant to be trained.</li>
 * </ul>
 *
 * <pre>{@code
 * ModelFile.Loaded f32 = ModelFile.load(Path.of("mlp.jburn"));
 * Quantization.Result q = Quantization.quantize(f32.model(), f32.state(), DType.S8);
 * ModelFile.save(Path.of("mlp-int8.jburn"), q.model(), q.state());    // about a quarter of the bytes
 * Tensor logits = q.model().predict(q.state(), images);               // dequantized inside the compiled predict
 * }</pre>
 *
 * The API lives here, beside {@link ModelFile}, because what it makes is what model files store; the
 * layer record is {@link Quantized} in {@code dev.jburn.nn.layers}, since files hold only those records.
 */
public final class Quantization {
    private Quantization() {}

    private static final String OP = "quantize";

    /**
     * A quantized model and its state.
     *
     * @param model the model, its quantized layers wrapped in {@link Quantized}, layer names unchanged
     * @param state its state: the narrow tensors, and the original tensors of everything else
     */
    public record Result(Model model, ModelState state) {}

    /**
     * Int8 values and per-channel scales of a kernel.
     *
     * @param values s8, the kernel's shape, in {@code [-127, 127]}
     * @param scale  one scale per output channel (the kernel's last axis), the kernel's float type
     */
    public record Int8(Tensor values, Tensor scale) {}

    /** {@code model} and {@code state} with parameters stored as {@code to}: {@code F16}, {@code BF16} or {@code S8} (see the class). */
    public static Result quantize(Model model, ModelState state, DType to) {
        if (model == null || state == null || to == null) throw new JBurnException(OP, "the model, its state and the target type are required");
        if (to != DType.F16 && to != DType.BF16 && to != DType.S8) {
            throw new JBurnException(OP, "quantizes to f16, bf16 or s8 (int8), not " + to.shortName());
        }
        if (!state.modelFingerprint().equals(model.fingerprint())) {
            throw new JBurnException(OP, "the state was made by model '" + state.modelName() + "', whose structure differs from model '" + model.name() + "'");
        }
        Map<String, Tensor> params = new LinkedHashMap<>(state.params());
        Set<String> frozen = new LinkedHashSet<>(state.frozen());
        Model q = model.mapLayers(l -> {
            if (l.layer() instanceof Quantized) throw new JBurnException(OP, "layer '" + l.name() + "' of model '" + model.name() + "' is quantized already");
            List<String> names = chosen(l.layer(), l.params(), to);
            if (names.isEmpty()) return l.layer();
            for (String n : names) {
                String full = l.name() + "." + n;
                Tensor w = state.params().get(full);
                if (to == DType.S8) {
                    Int8 i = int8PerChannel(w, full);
                    params.put(full, i.values());
                    params.put(full + Quantized.SCALE_SUFFIX, i.scale());
                    frozen.add(full);
                    frozen.add(full + Quantized.SCALE_SUFFIX);
                } else {
                    params.put(full, narrowFloat(w, to, full));
                }
            }
            return new Quantized(l.layer(), to, names);
        });
        return new Result(q, q.stateOf(params, state.state(), frozen));
    }

    /** The parameters of {@code layer} that {@code to} stores narrow: every float one for f16/bf16, the kernel of dense and conv layers for int8. */
    private static List<String> chosen(Layer layer, List<ParamSpec> specs, DType to) {
        List<String> names = new ArrayList<>();
        if (layer == null) return names;
        for (ParamSpec p : specs) {
            boolean wide = p.dtype().isFloat() && p.dtype().bits() > to.bits();
            if (to == DType.S8 ? (layer instanceof Dense || layer instanceof Conv) && p.name().equals("kernel") && wide : wide) names.add(p.name());
        }
        return names;
    }

    /**
     * Symmetric int8 quantization per output channel of {@code kernel} (rank ≥ 2, a float type; the
     * last axis is the output channel {@code c}): {@code scale[c] = max|kernel[..., c]| / 127} (the
     * smallest normal of the type where a channel is all zeros), {@code values = clip(round(kernel /
     * scale), -127, 127)} with round half away from zero, zero point 0. Then
     * {@code |kernel - values·scale| <= scale/2} elementwise ({@link Quantized#dequantize}). Runs on
     * the kernel's engine. NaN or infinite weights are refused.
     */
    public static Int8 int8PerChannel(Tensor kernel) { return int8PerChannel(kernel, "the kernel"); }

    private static Int8 int8PerChannel(Tensor w, String what) {
        if (w == null) throw new JBurnException(OP, what + " must not be null");
        if (!w.dtype().isFloat() || w.rank() < 2) {
            throw new JBurnException(OP, "int8 quantizes float kernels of rank >= 2 per output channel (last axis); " + what + " is "
                    + w.dtype().shortName() + w.shape());
        }
        requireFinite(w, what);
        int[] axes = new int[w.rank() - 1];
        for (int i = 0; i < axes.length; i++) axes[i] = i;
        double tiny = w.dtype() == DType.F64 ? Double.MIN_NORMAL : w.dtype() == DType.F32 ? Float.MIN_NORMAL : 6.103515625e-05;
        Tensor scale = w.abs().max(axes).divide(127.0).maximum(tiny);
        Tensor values = w.divide(scale).round().clip(-127.0, 127.0).asType(DType.S8);
        return new Int8(values, scale);
    }

    private static Tensor narrowFloat(Tensor w, DType to, String what) {
        requireFinite(w, what);
        Tensor n = w.asType(to);
        try (Tensor inf = n.isInfinity().any()) {
            if (inf.toBooleanArray()[0]) {
                throw new JBurnException(OP, what + " " + w.dtype().shortName() + w.shape() + " has values beyond the range of " + to.shortName()
                        + " (largest " + (to == DType.F16 ? "65504" : "about 3.4e38") + "); keep it in " + w.dtype().shortName());
            }
        }
        return n;
    }

    private static void requireFinite(Tensor w, String what) {
        try (Tensor bad = w.isNan().logicalOr(w.isInfinity()).any()) {
            if (bad.toBooleanArray()[0]) throw new JBurnException(OP, what + " " + w.dtype().shortName() + w.shape() + " holds NaN or infinite values, which cannot be quantized");
        }
    }
}
