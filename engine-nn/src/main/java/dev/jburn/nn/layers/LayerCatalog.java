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
                , "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
                "depthwise_conv1d", "depthwise_conv2d", "separable_conv1d", "separable_conv2d",
                "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d",
                "global_max_pool", "global_avg_pool", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d"
                // ---- end convolution and pooling ----

                // ---- normalization and regularization (helper) ----
                , "batch_norm", "layer_norm", "group_norm", "instance_norm", "rms_norm", "alpha_dropout"

                // ---- end normalization and regularization ----

                // ---- recurrent and attention (helper) ----
                , "lstm", "gru", "multi_head_attention", "transformer_encoder"

                // ---- end recurrent and attention ----

                // ---- shape (helper) ----
                , "transpose", "pad", "resize"

                // ---- end shape ----
        ));
        for (Activation.Kind a : Activation.Kind.values()) k.add(a.snake());
        KINDS = Collections.unmodifiableList(k);
    }

    /** The kinds, core first, activations last. */
    public static List<String> kinds() { return KINDS; }
}
