package dev.jburn.nn.layers;

import dev.jburn.nn.Activation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every built-in layer kind, by the name {@link dev.jburn.nn.Layer#kind()} returns. The
 * conformance kit's layer contract has a case for each; its meta-test fails when one lacks it.
 */
public final class LayerCatalog {
    private LayerCatalog() {}

    private static final List<String> KINDS;

    static {
        List<String> k = new ArrayList<>(List.of(
                // core
                "dense", "bias", "embedding", "custom",
                // regularization
                "dropout", "spatial_dropout",
                // shape and combination
                "flatten", "reshape", "concatenate", "add", "subtract", "multiply", "split"
                // ---- convolution and pooling (helper) ----

                // ---- end convolution and pooling ----

                // ---- normalization and regularization (helper) ----

                // ---- end normalization and regularization ----

                // ---- recurrent and attention (helper) ----
                , "lstm", "gru", "multi_head_attention", "transformer_encoder"

                // ---- end recurrent and attention ----

                // ---- shape (helper) ----

                // ---- end shape ----
        ));
        for (Activation.Kind a : Activation.Kind.values()) k.add(a.snake());
        KINDS = Collections.unmodifiableList(k);
    }

    /** The kinds, core first, activations last. */
    public static List<String> kinds() { return KINDS; }
}
