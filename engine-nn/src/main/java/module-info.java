/**
 * JBurn's deep-learning layer: models as immutable graphs of layers ({@code dev.jburn.nn}),
 * the layer catalog ({@code dev.jburn.nn.layers}), activations, initializers and model state,
 * and model files ({@code dev.jburn.io}: safetensors, saved models). Depends on the tensor API
 * and Jackson (JSON of file headers); the engine comes from the tensors.
 */
module dev.jburn.nn {
    requires transitive dev.jburn.api;
    requires me.tongfei.progressbar;
    requires org.knowm.xchart;
    requires java.desktop;
    requires com.fasterxml.jackson.databind;

    exports dev.jburn.nn;
    exports dev.jburn.nn.layers;
    exports dev.jburn.optim;
    exports dev.jburn.train;
    exports dev.jburn.data;
    exports dev.jburn.io;
}
