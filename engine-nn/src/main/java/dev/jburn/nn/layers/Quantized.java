package dev.jburn.nn.layers;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Initializers;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.ParamSpec;
import dev.jburn.nn.TensorSpec;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A layer whose parameters {@code params} are stored in a narrower type than the layer computes
 * in, and widened inside the computation: the model's state, its file and the memory hold the
 * narrow values, and {@link dev.jburn.nn.Model#predict} (compiled with {@code Jit}) widens them
 * as the first ops of the layer, then runs {@code layer} as it is. Made by
 * {@link dev.jburn.io.Quantization}; kind {@code "quantized_" + layer.kind()}.
 *
 * <ul>
 * <li>{@code storage} {@link DType#F16} or {@link DType#BF16}: each named parameter is held in that
 *     type and cast back to the layer's declared type ({@code w = stored.asType(f32)}), so the layer
 *     computes as before, on rounded weights.</li>
 * <li>{@code storage} {@link DType#S8}: symmetric int8 per output channel. Each named parameter
 *     {@code w} (a kernel whose last axis is the output channel: {@link Dense}'s {@code [in, units]},
 *     {@link Conv}'s {@code [k..., in/groups, filters]}) is held as {@code s8} values {@code q} in
 *     {@code [-127, 127]} and a parameter {@code <name>_scale} of one scale per output channel
 *     (the declared float type, f32), zero point 0; the layer computes with
 *     {@code w = q.asType(f32) * scale} ({@link #dequantize}).</li>
 * </ul>
 *
 * Other parameters and the state stay as the layer declares them. Under a mixed-precision call the
 * widened values are cast to the compute type the layer's inputs arrive in.
 *
 * <pre>{@code
 * Layer q = new Quantized(Dense.of(10), DType.S8, List.of("kernel"));   // params kernel: s8[in, 10], kernel_scale: f32[10], bias: f32[10]
 * }</pre>
 *
 * @param layer   the layer that computes (not itself {@code Quantized})
 * @param storage {@code F16}, {@code BF16} or {@code S8}
 * @param params  the local names of the layer's float parameters held in {@code storage}, without repeats
 */
public record Quantized(Layer layer, DType storage, List<String> params) implements Layer {
    /** Suffix of the per-channel scale of an int8 parameter ({@code kernel_scale}). */
    public static final String SCALE_SUFFIX = "_scale";

    public Quantized {
        if (layer == null || storage == null || params == null) throw new JBurnException("quantized", "the layer, storage type and parameter names are required");
        if (layer instanceof Quantized) throw new JBurnException("quantized", "the layer " + layer.kind() + " is quantized already");
        if (storage != DType.F16 && storage != DType.BF16 && storage != DType.S8) {
            throw new JBurnException("quantized", "storage must be f16, bf16 or s8, got " + storage.shortName());
        }
        params = List.copyOf(params);
        if (params.isEmpty()) throw new JBurnException("quantized", "names no parameter of " + layer.kind());
        if (new HashSet<>(params).size() != params.size()) throw new JBurnException("quantized", "names a parameter twice: " + params);
    }

    @Override public String kind() { return "quantized_" + layer.kind(); }

    @Override public TensorSpec output(LayerSignature in) { return layer.output(in); }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        List<ParamSpec> declared = layer.parameters(in);
        Set<String> names = new HashSet<>();
        for (ParamSpec p : declared) names.add(p.name());
        for (String n : params) {
            if (!names.contains(n)) throw in.error("quantizes '" + n + "', which " + layer.kind() + " does not have; it has " + names);
        }
        List<ParamSpec> out = new ArrayList<>();
        for (ParamSpec p : declared) {
            if (!params.contains(p.name())) {
                out.add(p);
                continue;
            }
            if (!p.dtype().isFloat()) throw in.error("can only quantize float parameters; '" + p.name() + "' is " + p.dtype().shortName());
            out.add(new ParamSpec(p.name(), p.shape(), storage, Initializers.zeros()));
            if (storage == DType.S8) {
                if (p.shape().rank() < 2) {
                    throw in.error("int8 quantizes kernels per output channel (the last axis of a rank >= 2 kernel); '" + p.name() + "' is "
                            + p.dtype().shortName() + p.shape());
                }
                String scale = p.name() + SCALE_SUFFIX;
                if (names.contains(scale)) throw in.error("cannot add '" + scale + "': " + layer.kind() + " has a parameter of that name");
                out.add(new ParamSpec(scale, Shape.of(p.shape().dim(-1)), p.dtype(), Initializers.ones()));
            }
        }
        return out;
    }

    @Override public List<ParamSpec> state(LayerSignature in) { return layer.state(in); }

    @Override public boolean usesKey() { return layer.usesKey(); }

    @Override public boolean keepsFullPrecision() { return layer.keepsFullPrecision(); }

    @Override public Tensor apply(LayerCall call) {
        Map<String, DType> declared = new LinkedHashMap<>();
        for (ParamSpec p : layer.parameters(call.signature())) declared.put(p.name(), p.dtype());
        DType compute = computeType(call);
        Map<String, Tensor> widened = new LinkedHashMap<>();
        for (String n : params) {
            Tensor stored = call.param(n);
            Tensor w = storage == DType.S8 ? dequantize(stored, call.param(n + SCALE_SUFFIX)) : stored.asType(declared.get(n));
            widened.put(n, compute != null && w.dtype() != compute ? w.asType(compute) : w);
        }
        return layer.apply(call.withParams(widened));
    }

    /**
     * The weights of int8 values {@code q} ({@code s8[..., C]}) and per-channel scales {@code scale}
     * ({@code [C]}, a float type): {@code q.asType(scale.dtype()) * scale}, broadcast along the last axis.
     */
    public static Tensor dequantize(Tensor q, Tensor scale) {
        if (q == null || scale == null) throw new JBurnException("dequantize", "the values and the scales are required");
        if (q.dtype() != DType.S8 || !scale.dtype().isFloat() || scale.rank() != 1 || q.rank() < 1 || q.shape().dim(-1) != scale.shape().dim(0)) {
            throw new JBurnException("dequantize", "expects s8 values [..., C] and float scales [C], got " + q.dtype().shortName() + q.shape()
                    + " and " + scale.dtype().shortName() + scale.shape());
        }
        return q.asType(scale.dtype()).multiply(scale);
    }

    /** The float type a mixed-precision call feeds this layer (its first float input's type where it differs from the declared one), else null. */
    private static DType computeType(LayerCall call) {
        List<TensorSpec> declared = call.signature().inputs();
        for (int i = 0; i < declared.size(); i++) {
            DType actual = call.input(i).dtype();
            if (actual.isFloat() && declared.get(i).dtype().isFloat()) return actual != declared.get(i).dtype() ? actual : null;
        }
        return null;
    }
}
