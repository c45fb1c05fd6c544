package dev.jburn.nn.layers;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.nn.Initializer;
import dev.jburn.nn.Initializers;
import dev.jburn.nn.Layer;
import dev.jburn.nn.LayerCall;
import dev.jburn.nn.LayerSignature;
import dev.jburn.nn.ParamSpec;
import dev.jburn.nn.TensorSpec;

import java.util.List;

/**
 * A lookup table: integer indices of any shape {@code [...]} become vectors {@code [..., dim]}
 * taken from {@code kernel [vocabulary, dim]} (PyTorch's {@code Embedding.weight} has the same
 * layout). An index outside {@code [0, vocabulary)} is an error of {@code take}.
 *
 * @param vocabulary  number of rows (≥ 1)
 * @param dim         vector size (≥ 1)
 * @param dtype       the table's float type (default f32)
 * @param initializer default uniform in [-0.05, 0.05) (Keras, Axon)
 */
public record Embedding(int vocabulary, int dim, DType dtype, Initializer initializer) implements Layer {
    public Embedding {
        if (vocabulary < 1 || dim < 1) throw new JBurnException("embedding", "vocabulary and dim must be positive, got " + vocabulary + " and " + dim);
        if (dtype == null || !dtype.isFloat()) throw new JBurnException("embedding", "the table's dtype must be a float type, got " + dtype);
        if (initializer == null) throw new JBurnException("embedding", "the initializer must not be null");
    }

    /** An f32 table of {@code vocabulary × dim}. */
    public static Embedding of(int vocabulary, int dim) {
        return new Embedding(vocabulary, dim, DType.F32, Initializers.uniform(-0.05, 0.05));
    }

    public Embedding withDType(DType t) { return new Embedding(vocabulary, dim, t, initializer); }

    public Embedding withInitializer(Initializer i) { return new Embedding(vocabulary, dim, dtype, i); }

    @Override public String kind() { return "embedding"; }

    @Override public TensorSpec output(LayerSignature in) {
        TensorSpec x = in.input();
        if (!x.dtype().isInteger()) throw in.error("expects integer indices, got " + x);
        int[] d = x.shape().dims();
        int[] o = java.util.Arrays.copyOf(d, d.length + 1);
        o[d.length] = dim;
        return new TensorSpec(Shape.of(o), dtype);
    }

    @Override public List<ParamSpec> parameters(LayerSignature in) {
        return List.of(new ParamSpec("kernel", Shape.of(vocabulary, dim), dtype, initializer));
    }

    @Override public Tensor apply(LayerCall call) { return call.param("kernel").take(call.input(), 0); }
}
