package dev.jburn.io;

import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.optim.OptimizerState;
import dev.jburn.train.History;
import dev.jburn.train.TrainStep;

import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The whole state of a training run in one file: parameters, model state, frozen set, optimizer state
 * (moments, step count, learning rate), the random key, the epoch and the history. A safetensors file
 * (tensors {@code params/*}, {@code state/*}, {@code optimizer/*}, {@code key}) with a SHA-256 checksum of the
 * data, written atomically. Resuming from it continues bit for bit: {@code Trainer.resume} runs the next epochs
 * exactly as an uninterrupted run would.
 *
 * <pre>{@code
 * Checkpoint.save(dir.resolve("epoch-2.ckpt"), state, 1, history);   // after epoch index 1 (the 2nd)
 * Checkpoint.Loaded c = Checkpoint.load(dir.resolve("epoch-2.ckpt"), model);
 * FitResult rest = trainer.resume(c, train, Fit.epochs(5).batchSize(128));
 * }</pre>
 */
public final class Checkpoint {
    /** The checkpoint version this JBurn writes and reads. */
    static final String VERSION = "1";

    private Checkpoint() {}

    /** The file's {@code format} metadata. */
    public static final String FORMAT = "jburn-checkpoint";

    /**
     * A loaded checkpoint.
     *
     * @param state   the training state
     * @param epoch   the last finished epoch (0-based)
     * @param history the history up to it
     */
    public record Loaded(TrainStep.State state, int epoch, History history) {}

    /** Writes the training state after epoch {@code epoch} (0-based) to {@code file}, atomically. */
    public static void save(Path file, TrainStep.State state, int epoch, History history) {
        if (file == null) throw new JBurnException(IoErrors.MODEL_FILE, "the path must not be null");
        if (state == null || history == null || epoch < 0) throw IoErrors.modelFile(file, "a checkpoint needs the state, an epoch >= 0 and the history");
        Map<String, Tensor> t = new LinkedHashMap<>();
        state.model().params().forEach((k, v) -> t.put("params/" + k, v));
        state.model().state().forEach((k, v) -> t.put("state/" + k, v));
        state.optimizer().tensors().forEach((k, v) -> t.put("optimizer/" + k, v));
        t.put("key", state.key());
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("format", FORMAT);
        meta.put("version", VERSION);
        meta.put("model", state.model().modelName());
        meta.put("fingerprint", state.model().modelFingerprint());
        meta.put("frozen", Topology.JSON.createArrayNode().addAll(state.model().frozen().stream()
                .map(Topology.JSON.getNodeFactory()::textNode).toList()).toString());
        meta.put("epoch", Integer.toString(epoch));
        meta.put("history", history.toCsv());
        SafeTensorsWriter.write(file, t, meta, "checksum");
    }

    /** The checkpoint in {@code file}, checked to belong to {@code model}; tensors on the default engine. */
    public static Loaded load(Path file, Model model) {
        if (file == null || model == null) throw new JBurnException(IoErrors.MODEL_FILE, "the path and the model are required");
        var found = new Object() {
            Map<String, String> meta;
        };
        MessageDigest digest = SafeTensorsWriter.sha256();
        SafeTensorsReader.Contents c = SafeTensorsReader.read(file, digest, h -> {
            Map<String, String> m = h.metadata();
            if (!FORMAT.equals(m.get("format"))) {
                throw IoErrors.modelFile(file, "is not a JBurn checkpoint (format '" + m.get("format") + "', expected '" + FORMAT + "')");
            }
            if (!VERSION.equals(m.get("version"))) throw IoErrors.modelFile(file, "has checkpoint version " + m.get("version") + "; this JBurn reads " + VERSION);
            String fp = m.get("fingerprint");
            if (fp == null || !fp.equals(model.fingerprint())) {
                throw IoErrors.modelFile(file, "is a checkpoint of model '" + m.get("model") + "', whose structure differs from model '" + model.name() + "'");
            }
            found.meta = m;
        });
        Map<String, Tensor> tensors = c.tensors();
        try {
            String expected = found.meta.get("checksum"), actual = HexFormat.of().formatHex(digest.digest());
            if (expected == null || !expected.equalsIgnoreCase(actual)) throw IoErrors.modelFile(file, "checksum mismatch: the tensor data is damaged");
            Map<String, Tensor> p = new LinkedHashMap<>(), s = new LinkedHashMap<>(), o = new LinkedHashMap<>();
            Tensor key = null;
            for (var e : tensors.entrySet()) {
                String k = e.getKey();
                if (k.startsWith("params/")) p.put(k.substring(7), e.getValue());
                else if (k.startsWith("state/")) s.put(k.substring(6), e.getValue());
                else if (k.startsWith("optimizer/")) o.put(k.substring(10), e.getValue());
                else if (k.equals("key")) key = e.getValue();
                else throw IoErrors.modelFile(file, "has an unexpected tensor '" + k + "'");
            }
            if (key == null) throw IoErrors.modelFile(file, "has no random key");
            Set<String> frozen = new LinkedHashSet<>();
            Topology.JSON.readTree(found.meta.get("frozen")).forEach(n -> frozen.add(n.asText()));
            ModelState ms = model.stateOf(p, s, frozen);
            int epoch = Integer.parseInt(found.meta.get("epoch"));
            return new Loaded(new TrainStep.State(ms, new OptimizerState(o), key), epoch, History.fromCsv(found.meta.get("history")));
        } catch (JBurnException e) {
            tensors.values().forEach(Tensor::close);
            throw e.op().equals(IoErrors.MODEL_FILE) ? e : IoErrors.modelFile(file, e.getMessage(), e);
        } catch (RuntimeException | java.io.IOException e) {
            tensors.values().forEach(Tensor::close);
            throw IoErrors.modelFile(file, "cannot read the checkpoint: " + e.getMessage(), e);
        }
    }
}
