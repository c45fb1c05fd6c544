package dev.jburn.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.nn.Layer;
import dev.jburn.nn.Model;
import dev.jburn.nn.TensorSpec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A model's structure as versioned JSON: its name, its inputs (name, shape with {@code -1} for open
 * axes, dtype) in declaration order, its layer nodes in graph order (name, kind, the layer's class
 * and options as {@link LayerCodec} writes them, the names of the nodes feeding it) and the names
 * of its outputs:
 *
 * <pre>{@code
 * {"name": "mlp",
 *  "inputs": [{"name": "x", "shape": [-1, 4], "dtype": "f32"}],
 *  "layers": [{"name": "dense_0", "kind": "dense", "class": "dev.jburn.nn.layers.Dense",
 *              "config": {"units": 8, "useBias": true, "activation": "relu", ...}, "inputs": ["x"]}, ...],
 *  "outputs": ["dense_1"]}
 * }</pre>
 *
 * Rebuilding names every node explicitly, so the rebuilt model has the same names, order,
 * parameters and fingerprint as the saved one.
 */
final class Topology {
    private Topology() {}

    static final ObjectMapper JSON = JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    /** The topology of {@code model}; fails (a {@link LayerCodec.CodecException}) for layers a file cannot hold. */
    static String write(Model model) {
        ObjectNode root = JSON.createObjectNode();
        root.put("name", model.name());
        ArrayNode inputs = root.putArray("inputs");
        List<String> inputNames = model.inputNames();
        List<TensorSpec> specs = model.inputSpecs();
        for (int i = 0; i < inputNames.size(); i++) {
            ObjectNode in = inputs.addObject();
            in.put("name", inputNames.get(i));
            ArrayNode shape = in.putArray("shape");
            for (int d : specs.get(i).shape().dims()) shape.add(d);
            in.put("dtype", specs.get(i).dtype().shortName());
        }
        ArrayNode layers = root.putArray("layers");
        for (Model.LayerInfo l : model.layers()) {
            if (l.layer() == null) continue; // an input, listed above
            ObjectNode node = layers.addObject();
            node.put("name", l.name());
            node.put("kind", l.kind());
            ObjectNode codec = LayerCodec.encode(l.layer(), "layer '" + l.name() + "'");
            node.set("class", codec.get("class"));
            node.set("config", codec.get("config"));
            ArrayNode from = node.putArray("inputs");
            l.sources().forEach(from::add);
        }
        ArrayNode outputs = root.putArray("outputs");
        model.outputNames().forEach(outputs::add);
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new LayerCodec.CodecException("cannot write the topology: " + e.getOriginalMessage(), e);
        }
    }

    /** The model {@code json} describes; fails (a {@link LayerCodec.CodecException}) on anything malformed. */
    static Model read(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new LayerCodec.CodecException("the topology is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) throw new LayerCodec.CodecException("the topology is not a JSON object", null);
        Map<String, Model> nodes = new HashMap<>();
        try {
            for (JsonNode in : array(root, "inputs")) {
                String name = text(in, "name", "an input");
                int[] dims = ints(in.get("shape"), "input '" + name + "': shape");
                Model m = Model.input(name, Shape.of(dims), DType.parse(text(in, "dtype", "input '" + name + "'")));
                if (nodes.put(name, m) != null) throw new LayerCodec.CodecException("two nodes are named '" + name + "'", null);
            }
            for (JsonNode n : array(root, "layers")) {
                String name = text(n, "name", "a layer");
                String where = "layer '" + name + "'";
                Layer layer = LayerCodec.decode(n, where);
                String kind = text(n, "kind", where);
                if (!layer.kind().equals(kind)) {
                    throw new LayerCodec.CodecException(where + ": its options make a '" + layer.kind() + "' layer, but the file says '" + kind + "'", null);
                }
                List<Model> ins = new ArrayList<>();
                for (JsonNode src : array(n, "inputs")) {
                    Model m = src.isTextual() ? nodes.get(src.asText()) : null;
                    if (m == null) throw new LayerCodec.CodecException(where + " takes '" + src.asText() + "', which no earlier node is named", null);
                    ins.add(m);
                }
                Model m = Model.apply(layer, ins.toArray(Model[]::new)).withName(name);
                if (nodes.put(name, m) != null) throw new LayerCodec.CodecException("two nodes are named '" + name + "'", null);
            }
            List<Model> outs = new ArrayList<>();
            for (JsonNode o : array(root, "outputs")) {
                Model m = o.isTextual() ? nodes.get(o.asText()) : null;
                if (m == null) throw new LayerCodec.CodecException("output '" + o.asText() + "' names no node", null);
                outs.add(m);
            }
            if (outs.isEmpty()) throw new LayerCodec.CodecException("the topology has no outputs", null);
            Model model = outs.size() == 1 ? outs.getFirst() : Model.outputs(outs.toArray(Model[]::new));
            model = model.named(text(root, "name", "the model"));
            model.layers(); // resolves the graph: shape errors surface here
            return model;
        } catch (JBurnException e) {
            throw new LayerCodec.CodecException("the topology does not make a model: " + IoErrors.message(e), e);
        }
    }

    private static JsonNode array(JsonNode parent, String field) {
        JsonNode a = parent.get(field);
        if (a == null || !a.isArray()) throw new LayerCodec.CodecException("the topology lacks the array '" + field + "'", null);
        return a;
    }

    private static String text(JsonNode parent, String field, String where) {
        JsonNode t = parent.get(field);
        if (t == null || !t.isTextual()) throw new LayerCodec.CodecException(where + " lacks its " + field, null);
        return t.asText();
    }

    private static int[] ints(JsonNode a, String where) {
        if (a == null || !a.isArray()) throw new LayerCodec.CodecException(where + " must be an array of integers", null);
        int[] out = new int[a.size()];
        for (int i = 0; i < out.length; i++) {
            JsonNode x = a.get(i);
            if (!x.isInt()) throw new LayerCodec.CodecException(where + " must be an array of integers, got " + a, null);
            out[i] = x.intValue();
        }
        return out;
    }
}
