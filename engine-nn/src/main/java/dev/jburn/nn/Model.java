package dev.jburn.nn;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.layers.ActivationLayer;
import dev.jburn.nn.layers.Bias;
import dev.jburn.nn.layers.Concatenate;
import dev.jburn.nn.layers.Dense;
import dev.jburn.nn.layers.Dropout;
import dev.jburn.nn.layers.Embedding;
import dev.jburn.nn.layers.Flatten;
import dev.jburn.nn.layers.Merge;
import dev.jburn.nn.layers.Reshape;
import dev.jburn.nn.layers.Slice;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * A model: an immutable graph of layers from one or more inputs to one or more outputs. Each
 * chaining method returns a new model with one more layer; nothing is computed until
 * {@link #init} makes the parameters and {@link #predict} runs the graph.
 *
 * <pre>{@code
 * Model mlp = Model.input("image", Shape.of(-1, 784))      // -1: the batch axis
 *         .dense(256, Activation.RELU)
 *         .dropout(0.2)
 *         .dense(10)
 *         .named("mlp");
 * System.out.println(mlp.summary());
 * ModelState state = mlp.init(Prng.key(0));
 * Tensor logits = mlp.predict(state, images);              // inference: dropout off, Jit-compiled
 * }</pre>
 *
 * Branches combine with {@link #add}, {@link #concatenate}, {@link #outputs} and {@link #split}:
 *
 * <pre>{@code
 * Model x = Model.input("x", Shape.of(-1, 64));
 * Model residual = Model.add(x, x.dense(64, Activation.RELU).dense(64));   // x + f(x)
 * Model a = Model.input("a", Shape.of(-1, 8)), b = Model.input("b", Shape.of(-1, 4));
 * Model twoInputs = Model.concatenate(-1, a.dense(16), b.dense(16)).dense(1);
 * }</pre>
 *
 * Layers are named {@code kind_i} in graph order ({@code dense_0}, {@code dense_1}); {@link #withName}
 * names the last layer. Parameters are named {@code layer.param} ({@code dense_0.kernel}).
 * A model is a value: it is safe to share between threads, and {@link #predict} compiles once per
 * input signature and caches the compiled function on the model.
 */
public final class Model {
    private final List<Node> outputs;
    private final String name;
    private volatile ModelGraph graph;
    private volatile ModelRunner runner;

    private Model(List<Node> outputs, String name) {
        this.outputs = List.copyOf(outputs);
        this.name = name;
    }

    // ==== inputs and structure ===================================================================

    /**
     * An input of f32 values; {@code -1} marks the batch axis and any other axis left open:
     * {@code Model.input("image", Shape.of(-1, 28, 28, 1))}.
     */
    public static Model input(String name, Shape shape) { return input(name, shape, DType.F32); }

    /** An input of {@code dtype} values (an integer type for token ids fed to {@link #embedding}). */
    public static Model input(String name, Shape shape, DType dtype) {
        checkName("input", name);
        if (shape == null || dtype == null) throw new JBurnException("input", "'" + name + "' needs a shape and a dtype");
        return new Model(List.of(Node.input(name, new TensorSpec(shape, dtype))), "model");
    }

    /** This model with {@code layer} applied to its output. */
    public Model apply(Layer layer) {
        if (layer == null) throw new JBurnException("model", "the layer must not be null");
        return new Model(List.of(Node.layer(layer, List.of(single("apply")))), name);
    }

    /** {@code layer} applied to the outputs of {@code inputs} (a layer of several inputs). */
    public static Model apply(Layer layer, Model... inputs) {
        if (layer == null) throw new JBurnException("model", "the layer must not be null");
        return new Model(List.of(Node.layer(layer, nodes(layer.kind(), inputs))), nameOf(inputs));
    }

    /** This model under another name (shown by {@link #summary}; the name of a model file). */
    public Model named(String modelName) {
        checkName("named", modelName);
        return new Model(outputs, modelName);
    }

    /** This model with its last layer (or input) named {@code layerName} instead of {@code kind_i}. */
    public Model withName(String layerName) {
        checkName("withName", layerName);
        return new Model(List.of(single("withName").renamed(layerName)), name);
    }

    /**
     * This model with each layer replaced by what {@code replace} returns for it (the layer itself to keep it): the same
     * inputs, connections, outputs and model name, and every layer keeps the name it has here ({@code dense_0} stays
     * {@code dense_0} even when the new layer is of another kind). Layers are visited in graph order. This is how
     * {@link dev.jburn.io.Quantization} wraps the layers of a trained model.
     *
     * <pre>{@code
     * Model noBias = mlp.mapLayers(l -> l.layer() instanceof Dense d ? d.withoutBias() : l.layer());
     * }</pre>
     */
    public Model mapLayers(java.util.function.Function<LayerInfo, Layer> replace) {
        if (replace == null) throw new JBurnException("mapLayers", "the function must not be null");
        ModelGraph g = graph();
        List<LayerInfo> infos = layers();
        Map<Node, Node> mapped = new java.util.IdentityHashMap<>();
        for (ModelGraph.Entry e : g.entries) {
            Node n = e.node();
            if (n.isInput()) {
                mapped.put(n, n);
                continue;
            }
            Layer l = replace.apply(infos.get(e.index()));
            if (l == null) throw new JBurnException("mapLayers", "the function returned null for layer '" + e.name() + "'");
            mapped.put(n, Node.layer(l, n.inputs.stream().map(mapped::get).toList()).renamed(e.name()));
        }
        return new Model(outputs.stream().map(mapped::get).toList(), name);
    }

    /** The model's name ({@code "model"} unless {@link #named}). */
    public String name() { return name; }

    // ==== core layers ===========================================================================

    /** A fully connected layer of {@code units} outputs ({@link Dense}). */
    public Model dense(int units) { return apply(Dense.of(units)); }

    /** A fully connected layer followed by {@code activation}, as one layer. */
    public Model dense(int units, Activation activation) { return apply(Dense.of(units).withActivation(activation)); }

    /** A learned bias on the last axis ({@link Bias}). */
    public Model bias() { return apply(Bias.of()); }

    /** An embedding table of {@code vocabulary × dim} for integer inputs ({@link Embedding}). */
    public Model embedding(int vocabulary, int dim) { return apply(Embedding.of(vocabulary, dim)); }

    /** Inverted dropout, active in training mode only ({@link Dropout}). */
    public Model dropout(double rate) { return apply(Dropout.of(rate)); }

    /** Dropout of whole channels of a channels-last input ({@link Dropout#spatial}). */
    public Model spatialDropout(double rate) { return apply(Dropout.spatial(rate)); }

    /** Flattens all axes but the batch axis ({@link Flatten}). */
    public Model flatten() { return apply(new Flatten()); }

    /** An activation as a layer ({@link ActivationLayer}). */
    public Model activation(Activation activation) { return apply(new ActivationLayer(activation)); }

    /** Reshapes each sample, keeping the batch axis ({@link Reshape}). */
    public Model reshape(int... dims) { return apply(Reshape.of(dims)); }

    // ==== combination ===========================================================================

    /** The element-wise sum of two or more models' outputs of one shape. */
    public static Model add(Model... inputs) { return apply(new Merge(Merge.Op.ADD), inputs); }

    /** {@code a - b}, element-wise. */
    public static Model subtract(Model a, Model b) { return apply(new Merge(Merge.Op.SUBTRACT), a, b); }

    /** The element-wise product of two or more models' outputs of one shape. */
    public static Model multiply(Model... inputs) { return apply(new Merge(Merge.Op.MULTIPLY), inputs); }

    /** The outputs joined along {@code axis}. */
    public static Model concatenate(int axis, Model... inputs) { return apply(new Concatenate(axis), inputs); }

    /** One model with several outputs, in this order ({@link #predictAll} returns them all). */
    public static Model outputs(Model... models) {
        if (models == null || models.length == 0) throw new JBurnException("outputs", "needs at least one model");
        List<Node> out = new ArrayList<>();
        for (Model m : models) {
            if (m == null) throw new JBurnException("outputs", "the models must not be null");
            out.addAll(m.outputs);
        }
        return new Model(out, nameOf(models));
    }

    /** The output split into {@code parts} equal parts along {@code axis}, one model each. */
    public List<Model> split(int axis, int parts) {
        Node in = single("split");
        if (parts < 1) throw new JBurnException("split", "parts must be positive, got " + parts);
        TensorSpec spec = new ModelGraph(List.of(in)).outputs.getFirst().output();
        int r = spec.rank();
        if (axis < -r || axis >= r) throw new JBurnException("split", "axis " + axis + " is out of range for " + spec.shape());
        int size = spec.dim(axis);
        if (size == Shape.OPEN || size % parts != 0) {
            throw new JBurnException("split", "axis " + axis + " of " + spec.shape() + " does not split into " + parts + " equal parts");
        }
        List<Model> out = new ArrayList<>();
        for (int i = 0; i < parts; i++) out.add(new Model(List.of(Node.layer(new Slice(axis, i * (size / parts), size / parts), List.of(in))), name));
        return out;
    }

    // ==== helper sections: convolution and pooling =================================================

    /** A 1-D convolution of {@code filters} outputs and kernel size {@code kernel}, stride 1, valid ({@link dev.jburn.nn.layers.Conv}). */
    public Model conv1d(int filters, int kernel) { return apply(dev.jburn.nn.layers.Conv.of(1, filters, kernel)); }

    /** A 2-D convolution of {@code filters} outputs and a {@code kernel × kernel} kernel, stride 1, valid ({@link dev.jburn.nn.layers.Conv}). */
    public Model conv2d(int filters, int kernel) { return apply(dev.jburn.nn.layers.Conv.of(2, filters, kernel)); }

    /** A 2-D convolution followed by {@code activation}, as one layer ({@link dev.jburn.nn.layers.Conv}). */
    public Model conv2d(int filters, int kernel, Activation activation) { return apply(dev.jburn.nn.layers.Conv.of(2, filters, kernel).withActivation(activation)); }

    /** A 3-D convolution of {@code filters} outputs and a cubic kernel of {@code kernel}, stride 1, valid ({@link dev.jburn.nn.layers.Conv}). */
    public Model conv3d(int filters, int kernel) { return apply(dev.jburn.nn.layers.Conv.of(3, filters, kernel)); }

    /** A 2-D transposed convolution upsampling by {@code stride}, valid padding ({@link dev.jburn.nn.layers.ConvTranspose}). */
    public Model convTranspose2d(int filters, int kernel, int stride) { return apply(dev.jburn.nn.layers.ConvTranspose.of(2, filters, kernel).withStrides(stride)); }

    /** A 2-D depthwise convolution, depth multiplier 1 ({@link dev.jburn.nn.layers.DepthwiseConv}). */
    public Model depthwiseConv2d(int kernel) { return apply(dev.jburn.nn.layers.DepthwiseConv.of(2, kernel)); }

    /** A 2-D depthwise-separable convolution to {@code filters} outputs ({@link dev.jburn.nn.layers.SeparableConv}). */
    public Model separableConv2d(int filters, int kernel) { return apply(dev.jburn.nn.layers.SeparableConv.of(2, filters, kernel)); }

    /** 1-D max pooling with window and stride {@code size} ({@link dev.jburn.nn.layers.Pool}). */
    public Model maxPool1d(int size) { return apply(dev.jburn.nn.layers.Pool.max(1, size)); }

    /** 2-D max pooling with a {@code size × size} window and stride {@code size} ({@link dev.jburn.nn.layers.Pool}). */
    public Model maxPool2d(int size) { return apply(dev.jburn.nn.layers.Pool.max(2, size)); }

    /** 3-D max pooling with window and stride {@code size} on each axis ({@link dev.jburn.nn.layers.Pool}). */
    public Model maxPool3d(int size) { return apply(dev.jburn.nn.layers.Pool.max(3, size)); }

    /** 1-D average pooling with window and stride {@code size} ({@link dev.jburn.nn.layers.Pool}). */
    public Model avgPool1d(int size) { return apply(dev.jburn.nn.layers.Pool.avg(1, size)); }

    /** 2-D average pooling with a {@code size × size} window and stride {@code size} ({@link dev.jburn.nn.layers.Pool}). */
    public Model avgPool2d(int size) { return apply(dev.jburn.nn.layers.Pool.avg(2, size)); }

    /** 3-D average pooling with window and stride {@code size} on each axis ({@link dev.jburn.nn.layers.Pool}). */
    public Model avgPool3d(int size) { return apply(dev.jburn.nn.layers.Pool.avg(3, size)); }

    /** The maximum of each channel over all spatial axes: {@code [b, ..., c] → [b, c]} ({@link dev.jburn.nn.layers.GlobalPool}). */
    public Model globalMaxPool() { return apply(dev.jburn.nn.layers.GlobalPool.max()); }

    /** The mean of each channel over all spatial axes: {@code [b, ..., c] → [b, c]} ({@link dev.jburn.nn.layers.GlobalPool}). */
    public Model globalAvgPool() { return apply(dev.jburn.nn.layers.GlobalPool.avg()); }

    /** Adaptive average pooling of a 2-D input to {@code outH × outW} (PyTorch bins, {@link dev.jburn.nn.layers.AdaptiveAvgPool}). */
    public Model adaptiveAvgPool2d(int outH, int outW) { return apply(dev.jburn.nn.layers.AdaptiveAvgPool.of(outH, outW)); }

    // ==== end convolution and pooling =============================================================



    // ==== helper sections: normalization and regularization =======================================

    /** Batch normalization over the last axis with Keras's defaults (momentum 0.99, epsilon 1e-3; {@link dev.jburn.nn.layers.BatchNorm}). */
    public Model batchNorm() { return apply(dev.jburn.nn.layers.BatchNorm.of()); }

    /** Layer normalization over the last axis, epsilon 1e-5 ({@link dev.jburn.nn.layers.LayerNorm}). */
    public Model layerNorm() { return apply(dev.jburn.nn.layers.LayerNorm.of()); }

    /** Group normalization of the last-axis channels in {@code groups} groups, epsilon 1e-5 ({@link dev.jburn.nn.layers.GroupNorm}). */
    public Model groupNorm(int groups) { return apply(dev.jburn.nn.layers.GroupNorm.of(groups)); }

    /** Instance normalization per sample and channel over the spatial axes, affine, epsilon 1e-5 ({@link dev.jburn.nn.layers.InstanceNorm}). */
    public Model instanceNorm() { return apply(dev.jburn.nn.layers.InstanceNorm.of()); }

    /** RMS normalization over the last axis, epsilon 1e-6 ({@link dev.jburn.nn.layers.RmsNorm}). */
    public Model rmsNorm() { return apply(dev.jburn.nn.layers.RmsNorm.of()); }

    /** Alpha dropout for SELU networks, active in training mode only ({@link dev.jburn.nn.layers.AlphaDropout}). */
    public Model alphaDropout(double rate) { return apply(dev.jburn.nn.layers.AlphaDropout.of(rate)); }



    // ==== end normalization and regularization ====================================================



    // ==== helper sections: recurrent and attention ================================================

    /** An LSTM of {@code units} over {@code [batch, time, features]}, returning its last hidden state {@code [batch, units]} ({@link dev.jburn.nn.layers.Lstm}). */
    public Model lstm(int units) { return apply(dev.jburn.nn.layers.Lstm.of(units)); }

    /** An LSTM returning every step's hidden state {@code [batch, time, units]} when {@code returnSequences}, else the last. */
    public Model lstm(int units, boolean returnSequences) { return apply(dev.jburn.nn.layers.Lstm.of(units).withReturnSequences(returnSequences)); }

    /** A GRU of {@code units} returning its last hidden state {@code [batch, units]} ({@link dev.jburn.nn.layers.Gru}). */
    public Model gru(int units) { return apply(dev.jburn.nn.layers.Gru.of(units)); }

    /** A GRU returning every step's hidden state when {@code returnSequences}, else the last. */
    public Model gru(int units, boolean returnSequences) { return apply(dev.jburn.nn.layers.Gru.of(units).withReturnSequences(returnSequences)); }

    /** A bidirectional LSTM: forward and backward states concatenated ({@code 2·units} features). */
    public Model bidirectionalLstm(int units, boolean returnSequences) {
        return apply(dev.jburn.nn.layers.Lstm.of(units).withReturnSequences(returnSequences).withBidirectional(true));
    }

    /** Multi-head self-attention of {@code numHeads} heads of {@code keyDim} ({@link dev.jburn.nn.layers.MultiHeadAttention}). */
    public Model selfAttention(int numHeads, int keyDim) { return apply(dev.jburn.nn.layers.MultiHeadAttention.of(numHeads, keyDim)); }

    /** Multi-head attention of {@code query} over {@code keyValue} (key = value; cross-attention). */
    public static Model multiHeadAttention(int numHeads, int keyDim, Model query, Model keyValue) {
        return apply(dev.jburn.nn.layers.MultiHeadAttention.of(numHeads, keyDim), query, keyValue);
    }

    /** A post-LN transformer encoder block, relu feed-forward of {@code ffDim} ({@link dev.jburn.nn.layers.TransformerEncoder}). */
    public Model transformerEncoder(int numHeads, int ffDim, double dropout) {
        return apply(dev.jburn.nn.layers.TransformerEncoder.of(numHeads, ffDim).withDropout(dropout));
    }


    // ==== end recurrent and attention =============================================================



    // ==== helper sections: shape =================================================================

    /** Permutes the non-batch axes; {@code perm} numbers them from 1, as Keras's {@code Permute} ({@link dev.jburn.nn.layers.Transpose}). */
    public Model transpose(int... perm) { return apply(dev.jburn.nn.layers.Transpose.of(perm)); }

    /** Zero padding of the spatial axes of a channels-last input, one {@code {lo, hi}} per axis ({@link dev.jburn.nn.layers.Pad}). */
    public Model pad(int[]... loHi) { return apply(dev.jburn.nn.layers.Pad.of(loHi)); }

    /** Bilinear resizing (half-pixel centers) of the spatial axes of a channels-last input to {@code size} ({@link dev.jburn.nn.layers.Resize}). */
    public Model resize(int... size) { return apply(dev.jburn.nn.layers.Resize.of(size)); }



    // ==== end shape ==============================================================================

    // ==== running ================================================================================

    /**
     * Fresh parameters and state from {@code key} ({@code Prng.key(seed)}): each tensor is drawn
     * with its own key, {@code Prng.foldIn(key, hash(path))} (64-bit FNV-1a of the UTF-8 path
     * {@code "dense_0.kernel"}), so the same key gives the same parameters on every engine and a
     * layer's parameters do not change when another layer is added. Tensors are made on the
     * key's engine.
     */
    public ModelState init(Tensor key) { return runner().init(key); }

    /**
     * A state of this model from existing tensors, drawing no random numbers: what model files and
     * checkpoints load. {@code params} and {@code state} must hold exactly this model's names
     * ({@link #parameterSpecs()}, {@link #stateSpecs()}) with their shapes and dtypes; {@code frozen}
     * names parameters. The state fits this model ({@link #predict} accepts it) and keeps the
     * model's order, whatever the maps' order.
     *
     * <pre>{@code
     * Map<String, Tensor> p = SafeTensors.read(Path.of("mlp.safetensors"));
     * ModelState s = mlp.stateOf(p, Map.of(), Set.of("dense_0.kernel"));
     * }</pre>
     */
    public ModelState stateOf(Map<String, Tensor> params, Map<String, Tensor> state, java.util.Set<String> frozen) {
        ModelGraph g = graph();
        if (frozen == null) throw new JBurnException("stateOf", "the frozen set must not be null (use Set.of())");
        for (String f : frozen) {
            if (f == null || !g.params.containsKey(f)) {
                throw new JBurnException("stateOf", "cannot freeze '" + f + "': model '" + name + "' has no such parameter; parameters: " + g.params.keySet());
            }
        }
        return new ModelState(name, g.fingerprint, matching("parameter", g.params, params), matching("state", g.state, state),
                new java.util.LinkedHashSet<>(g.params.keySet().stream().filter(frozen::contains).toList()));
    }

    private Map<String, Tensor> matching(String what, Map<String, ParamSpec> specs, Map<String, Tensor> given) {
        if (given == null) throw new JBurnException("stateOf", "the " + what + " map must not be null");
        for (String k : given.keySet()) {
            if (!specs.containsKey(k)) throw new JBurnException("stateOf", "model '" + name + "' has no " + what + " '" + k + "'; it has " + specs.keySet());
        }
        Map<String, Tensor> out = new java.util.LinkedHashMap<>();
        for (var e : specs.entrySet()) {
            Tensor t = given.get(e.getKey());
            ParamSpec spec = e.getValue();
            if (t == null) throw new JBurnException("stateOf", "missing " + what + " '" + e.getKey() + "' of model '" + name + "'");
            if (t.isClosed()) throw new JBurnException("stateOf", what + " '" + e.getKey() + "' was closed");
            if (!t.shape().equals(spec.shape()) || t.dtype() != spec.dtype()) {
                throw new JBurnException("stateOf", what + " '" + e.getKey() + "' must be " + spec.dtype().shortName() + spec.shape()
                        + ", got " + t.dtype().shortName() + t.shape());
            }
            out.put(e.getKey(), t);
        }
        return out;
    }

    /**
     * The output in inference mode (dropout off, batch norm on its running statistics): pure,
     * compiled with {@code Jit} per input signature and cached on this model. Inputs are given
     * in {@link #inputSpecs()} order, on the state's engine; a float input of another float type
     * is converted to the declared one. Fails for a model of several outputs (use {@link #predictAll}).
     */
    public Tensor predict(ModelState state, Tensor... inputs) {
        List<Tensor> out = predictAll(state, inputs);
        if (out.size() != 1) throw new JBurnException("predict", "model '" + name + "' has " + out.size() + " outputs; use predictAll");
        return out.getFirst();
    }

    /** Every output in inference mode, in {@link #outputs} order. */
    public List<Tensor> predictAll(ModelState state, Tensor... inputs) { return runner().predict(state, inputs); }

    /** {@link #predictAll} with inputs by name. */
    public List<Tensor> predictAll(ModelState state, Map<String, Tensor> inputs) { return runner().predict(state, runner().byName(inputs)); }

    /**
     * A training-mode call (dropout on, batch norm on batch statistics): the outputs and the state
     * updated for the next step. {@code key} ({@code Prng.key}) drives every random layer; each
     * layer folds its own index into it. Compiled per input signature and cached, like {@link #predict}.
     */
    public Forward forward(ModelState state, Tensor key, Tensor... inputs) { return runner().forwardTraining(state, key, inputs); }

    /**
     * The pure function behind {@link #predict} and {@link #forward}, for code that traces or
     * differentiates a model (a training step): parameters and state by full name, inputs in
     * {@link #inputSpecs()} order, {@code key} needed only in training mode by random layers.
     * Not compiled here; call it inside {@code Jit.compile} or {@code Autodiff}.
     */
    public Forward call(Map<String, Tensor> params, Map<String, Tensor> state, List<Tensor> inputs, boolean training, Tensor key) {
        return runner().call(params, state, inputs, training, key);
    }

    /**
     * {@link #call(Map, Map, List, boolean, Tensor)} in mixed precision: every layer computes in {@code compute}
     * (bf16 or f16) with its float inputs and parameters cast to it, except the normalization layers
     * ({@link Layer#keepsFullPrecision()}), which run in their declared type; updated state and float outputs are
     * cast back to their declared types. The parameters stay in their own (master) type, and gradients taken
     * through this call come back in it. {@code null} or the declared type runs as declared.
     *
     * <pre>{@code
     * Forward f = model.call(params, state, List.of(x), true, key, DType.BF16);   // bf16 matmuls, f32 outputs
     * }</pre>
     */
    public Forward call(Map<String, Tensor> params, Map<String, Tensor> state, List<Tensor> inputs, boolean training, Tensor key,
                        DType compute) {
        return runner().call(params, state, inputs, training, key, compute);
    }

    // ==== description ============================================================================

    /** The inputs' names, in the order {@link #predict} takes them (the order they were declared). */
    public List<String> inputNames() { return graph().inputs.stream().map(ModelGraph.Entry::name).toList(); }

    /** The inputs' specs, in {@link #inputNames()} order. */
    public List<TensorSpec> inputSpecs() { return graph().inputs.stream().map(ModelGraph.Entry::output).toList(); }

    /** The outputs' specs. */
    public List<TensorSpec> outputSpecs() { return graph().outputs.stream().map(ModelGraph.Entry::output).toList(); }

    /**
     * The structure of this model (layer names, kinds, input and output specs, parameter shapes): equal to
     * {@link ModelState#modelFingerprint()} of its states; files and checkpoints use it to refuse a state of another model.
     */
    public String fingerprint() { return graph().fingerprint; }

    /** The names of the layers (or inputs) whose results are the outputs, in {@link #outputs} order. */
    public List<String> outputNames() { return graph().outputs.stream().map(ModelGraph.Entry::name).toList(); }

    /** The parameters this model makes, by full name, in layer order (shapes, dtypes, initializers). */
    public Map<String, ParamSpec> parameterSpecs() { return graph().params; }

    /** The non-trainable state this model makes, by full name. */
    public Map<String, ParamSpec> stateSpecs() { return graph().state; }

    /** Number of parameter elements. */
    public long parameterCount() { return graph().params.values().stream().mapToLong(ParamSpec::size).sum(); }

    /** The layers in graph order: name, kind, the layer itself, input and output specs, parameters. */
    public List<LayerInfo> layers() {
        return graph().entries.stream().map(e -> new LayerInfo(e.name(), e.node().kind(), e.node().layer,
                e.signature().inputs(), e.output(), e.params(), e.state(),
                e.node().inputs.stream().map(n -> graph().entries.stream().filter(x -> x.node() == n).findFirst().orElseThrow().name()).toList()))
                .toList();
    }

    /** A table of the layers (name, kind, output shape, parameters) and the totals, as Keras and Axon print. */
    public String summary() { return Summary.of(this, null); }

    /** {@link #summary()} counting the parameters {@code state} has frozen. */
    public String summary(ModelState state) { return Summary.of(this, state); }

    @Override public String toString() { return "Model[" + name + ": " + graph().entries.size() + " nodes, " + parameterCount() + " parameters]"; }

    // ==== internals ==============================================================================

    ModelGraph graph() {
        ModelGraph g = graph;
        if (g == null) {
            synchronized (this) {
                if (graph == null) graph = new ModelGraph(outputs);
                g = graph;
            }
        }
        return g;
    }

    private ModelRunner runner() {
        ModelRunner r = runner;
        if (r == null) {
            synchronized (this) {
                if (runner == null) runner = new ModelRunner(name, graph());
                r = runner;
            }
        }
        return r;
    }

    private Node single(String op) {
        if (outputs.size() != 1) throw new JBurnException(op, "model '" + name + "' has " + outputs.size() + " outputs; apply a layer to one of them");
        return outputs.getFirst();
    }

    private static List<Node> nodes(String op, Model... inputs) {
        if (inputs == null || inputs.length == 0) throw new JBurnException(op, "needs at least one input model");
        List<Node> n = new ArrayList<>();
        for (Model m : inputs) {
            if (m == null) throw new JBurnException(op, "the input models must not be null");
            n.add(m.single(op));
        }
        return n;
    }

    private static String nameOf(Model... ms) { return ms.length > 0 && ms[0] != null ? ms[0].name : "model"; }

    private static void checkName(String op, String name) {
        if (name == null || name.isBlank() || name.contains(".")) {
            throw new JBurnException(op, "a name must be non-blank and without '.', got " + (name == null ? "null" : "'" + name + "'"));
        }
    }

    /**
     * One layer of a model, as {@link #layers()} lists it.
     *
     * @param name    its name ({@code "dense_0"})
     * @param kind    its kind ({@code "dense"}, {@code "input"})
     * @param layer   the layer (null for an input)
     * @param inputs  its input specs
     * @param output  its output spec
     * @param params  its parameters
     * @param state   its non-trainable state
     * @param sources the names of the layers (or inputs) feeding it
     */
    public record LayerInfo(String name, String kind, Layer layer, List<TensorSpec> inputs, TensorSpec output,
                            List<ParamSpec> params, List<ParamSpec> state, List<String> sources) {
        /** Number of parameter elements of this layer. */
        public long parameterCount() { return params.stream().mapToLong(ParamSpec::size).sum(); }
    }

    static String dims(Shape s) { return Arrays.toString(s.dims()); }
}
