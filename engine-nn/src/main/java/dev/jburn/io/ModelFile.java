package dev.jburn.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.nn.ParamSpec;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A whole model in one file: its topology, parameters, non-trainable state and frozen set. The file
 * is a plain safetensors file (PyTorch and the Hugging Face tools read its tensors): parameters are
 * named {@code "params/<name>"} ({@code params/dense_0.kernel}), state {@code "state/<name>"}, and
 * {@code __metadata__} holds {@code "format": "jburn-model"}, {@code "version"} ({@code "1"} or {@code "2"}, see
 * below), {@code "topology"}
 * (the model as JSON: inputs, layer records and their options, connections, outputs), {@code "frozen"}
 * (a JSON list), {@code "fingerprint"} (the model's structure) and {@code "checksum"} (SHA-256, hex,
 * of the tensor bytes).
 *
 * <pre>{@code
 * Model mlp = Model.input("x", Shape.of(-1, 4)).dense(8, Activation.RELU).dropout(0.5).dense(3);
 * ModelState state = mlp.init(Prng.key(0)).freeze("dense_0.*");
 * ModelFile.save(Path.of("mlp.safetensors"), mlp, state);
 *
 * ModelFile.Loaded loaded = ModelFile.load(Path.of("mlp.safetensors"));
 * Tensor y = loaded.model().predict(loaded.state(), x);       // the saved model's output, bit for bit
 * }</pre>
 *
 * <p>Only models of the built-in layer records ({@code dev.jburn.nn.layers}) can be saved; a
 * {@link dev.jburn.nn.layers.Custom} layer or a layer class of one's own holds code, and
 * {@link #save} refuses it (save the parameters with {@link SafeTensors#write} and rebuild such a
 * model in code). Loading looks up layer classes in that package only, never an arbitrary class.
 * Initializers are stored as text; the built-in ones come back as themselves, others as a
 * placeholder that fails if {@code init} is called (the loaded state already holds the parameters).
 *
 * <p>Versions. Version 1 is the format above with float parameters. Version 2 adds quantized models
 * ({@link Quantization}): layers wrapped in {@link dev.jburn.nn.layers.Quantized} in the topology and
 * parameters of types f16, bf16 or s8 (with f32 {@code *_scale} tensors beside s8 kernels); nothing else
 * changes. {@link #save} writes version 2 only for a model with a quantized layer and version 1 for
 * every other model, so JBurns that read version 1 only still load those; {@link #load} reads both.
 *
 * <p>Loading checks, before reading any tensor data, the format and version and that the rebuilt
 * model's parameter and state names, shapes and dtypes equal the file's; then it verifies the
 * checksum and the fingerprint. Faults are {@link JBurnException}s with op {@code "model file"}
 * (damage to the safetensors structure itself: op {@code "safetensors"}), naming the file.
 */
public final class ModelFile {
    private ModelFile() {}

    /** The {@code "format"} metadata of model files. */
    public static final String FORMAT = "jburn-model";
    /** The newest version this JBurn writes and reads: 2, quantized models (see the class). */
    public static final String VERSION = "2";
    /** The version of files without quantized layers, which this JBurn still writes for them and reads. */
    public static final String VERSION_1 = "1";

    static final String PARAMS = "params/", STATE = "state/";

    /**
     * A loaded model and its state.
     *
     * @param model the rebuilt model
     * @param state its parameters, state and frozen set, on the default engine; {@code model.predict(state, x)} accepts it
     */
    public record Loaded(Model model, ModelState state) {}

    /** Writes {@code model} and {@code state} to {@code file}, atomically (see {@link SafeTensors}). */
    public static void save(Path file, Model model, ModelState state) {
        if (file == null) throw new JBurnException(IoErrors.MODEL_FILE, "the path must not be null");
        if (model == null || state == null) throw IoErrors.modelFile(file, "the model and its state are required");
        String topology;
        try {
            topology = Topology.write(model);
        } catch (LayerCodec.CodecException e) {
            throw IoErrors.modelFile(file, "cannot save model '" + model.name() + "': " + e.getMessage(), e);
        }
        ModelState fitted;
        try {
            fitted = model.stateOf(state.params(), state.state(), state.frozen());
        } catch (JBurnException e) {
            throw IoErrors.modelFile(file, "the state does not fit model '" + model.name() + "': " + e.reason(), e);
        }
        if (!fitted.modelFingerprint().equals(state.modelFingerprint())) {
            throw IoErrors.modelFile(file, "the state was made by model '" + state.modelName() + "', whose structure differs from model '"
                    + model.name() + "'");
        }
        Map<String, Tensor> tensors = new LinkedHashMap<>();
        fitted.params().forEach((k, v) -> tensors.put(PARAMS + k, v));
        fitted.state().forEach((k, v) -> tensors.put(STATE + k, v));
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("format", FORMAT);
        meta.put("version", quantized(model) ? VERSION : VERSION_1);
        meta.put("topology", topology);
        meta.put("frozen", Topology.JSON.createArrayNode().addAll(fitted.frozen().stream()
                .map(Topology.JSON.getNodeFactory()::textNode).toList()).toString());
        meta.put("fingerprint", fitted.modelFingerprint());
        SafeTensorsWriter.write(file, tensors, meta, "checksum");
    }

    /** The model and state in {@code file}, tensors on the default engine. */
    public static Loaded load(Path file) {
        if (file == null) throw new JBurnException(IoErrors.MODEL_FILE, "the path must not be null");
        var found = new Object() {
            Model model;
            Map<String, String> meta;
        };
        MessageDigest digest = SafeTensorsWriter.sha256();
        SafeTensorsReader.Contents c = SafeTensorsReader.read(file, digest, h -> {
            found.meta = h.metadata();
            found.model = rebuild(file, h);
        });
        Map<String, Tensor> tensors = c.tensors();
        try {
            String expected = found.meta.get("checksum");
            String actual = HexFormat.of().formatHex(digest.digest());
            if (expected == null) throw IoErrors.modelFile(file, "has no checksum");
            if (!expected.equalsIgnoreCase(actual)) {
                throw IoErrors.modelFile(file, "checksum mismatch: the tensor data is damaged (the file says " + expected + ", the data hashes to " + actual + ")");
            }
            Map<String, Tensor> params = new LinkedHashMap<>(), state = new LinkedHashMap<>();
            tensors.forEach((k, v) -> (k.startsWith(PARAMS) ? params : state).put(k.substring(k.indexOf('/') + 1), v));
            ModelState s;
            try {
                s = found.model.stateOf(params, state, frozen(file, found.meta.get("frozen")));
            } catch (JBurnException e) {
                throw IoErrors.modelFile(file, "the file's state does not fit its model: " + e.reason(), e);
            }
            if (!s.modelFingerprint().equals(found.meta.get("fingerprint"))) {
                throw IoErrors.modelFile(file, "the rebuilt model's structure differs from the one saved (fingerprint mismatch):"
                        + " the file is damaged or was written by an incompatible JBurn");
            }
            return new Loaded(found.model, s);
        } catch (RuntimeException e) {
            tensors.values().forEach(Tensor::close);
            throw e;
        }
    }

    /** Checks the metadata and rebuilds the model, checking its tensors against the header's: before any data is read. */
    private static Model rebuild(Path file, SafeTensorsHeader h) {
        Map<String, String> meta = h.metadata();
        String format = meta.get("format");
        if (format == null) {
            throw IoErrors.modelFile(file, "is not a JBurn model file (no 'format' in its metadata); plain safetensors files load with SafeTensors.read");
        }
        if (!format.equals(FORMAT)) throw IoErrors.modelFile(file, "is not a JBurn model file: its format is '" + format + "', not '" + FORMAT + "'");
        String version = meta.get("version");
        if (!VERSION.equals(version) && !VERSION_1.equals(version)) {
            throw IoErrors.modelFile(file, "has model file version '" + version + "'; this JBurn reads versions " + VERSION_1 + " and " + VERSION);
        }
        for (String key : List.of("topology", "frozen", "fingerprint", "checksum")) {
            if (!meta.containsKey(key)) throw IoErrors.modelFile(file, "lacks the '" + key + "' metadata");
        }
        Model m;
        try {
            m = Topology.read(meta.get("topology"));
        } catch (LayerCodec.CodecException e) {
            throw IoErrors.modelFile(file, "cannot rebuild the model: " + e.getMessage(), e);
        }
        List<String> problems = new ArrayList<>();
        Map<String, SafeTensorsHeader.Entry> byName = new LinkedHashMap<>();
        for (SafeTensorsHeader.Entry e : h.entries()) byName.put(e.name(), e);
        compare(PARAMS, m.parameterSpecs(), byName, problems);
        compare(STATE, m.stateSpecs(), byName, problems);
        for (String extra : byName.keySet()) problems.add("the file has '" + extra + "', which the model does not");
        if (!problems.isEmpty()) {
            throw IoErrors.modelFile(file, "the file's parameters do not match its topology: " + String.join("; ", problems));
        }
        return m;
    }

    private static boolean quantized(Model model) {
        return model.layers().stream().anyMatch(l -> l.layer() instanceof dev.jburn.nn.layers.Quantized);
    }

    private static void compare(String prefix, Map<String, ParamSpec> specs, Map<String, SafeTensorsHeader.Entry> byName, List<String> problems) {
        for (var s : specs.entrySet()) {
            SafeTensorsHeader.Entry e = byName.remove(prefix + s.getKey());
            ParamSpec p = s.getValue();
            if (e == null) problems.add("the model has '" + prefix + s.getKey() + "' (" + p.dtype().shortName() + p.shape() + "), which the file lacks");
            else if (e.dtype() != p.dtype() || !e.shape().equals(p.shape())) {
                problems.add("'" + prefix + s.getKey() + "' is " + e.dtype().shortName() + e.shape() + " in the file but "
                        + p.dtype().shortName() + p.shape() + " in the model");
            }
        }
    }

    private static Set<String> frozen(Path file, String json) {
        try {
            JsonNode a = Topology.JSON.readTree(json);
            if (a == null || !a.isArray()) throw IoErrors.modelFile(file, "the 'frozen' metadata is not a JSON list");
            Set<String> out = new LinkedHashSet<>();
            for (JsonNode n : a) {
                if (!n.isTextual()) throw IoErrors.modelFile(file, "the 'frozen' metadata must list names, got " + n);
                out.add(n.asText());
            }
            return out;
        } catch (JsonProcessingException e) {
            throw IoErrors.modelFile(file, "the 'frozen' metadata is not valid JSON: " + e.getOriginalMessage(), e);
        }
    }
}
