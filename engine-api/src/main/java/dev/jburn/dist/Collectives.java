package dev.jburn.dist;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Tensor;
import dev.jburn.TensorScope;

import java.util.ArrayList;
import java.util.List;

/**
 * The checks and the host-side arithmetic the JVM communicators share. Reductions add the replicas' tensors in
 * rank order ({@code ((t0 + t1) + t2) + ...}) on the receiving replica's engine, so every replica computes the
 * same bits whatever the thread timing, and a thread group and a process group give the same result.
 */
final class Collectives {
    private Collectives() {}

    /** Fails naming {@code op} unless {@code tensors} is a list of live tensors that {@code reduce} can combine. */
    static void check(String op, List<Tensor> tensors, ReduceOp reduce) {
        if (tensors == null) throw new JBurnException(op, "the tensor list must not be null");
        for (int i = 0; i < tensors.size(); i++) {
            Tensor t = tensors.get(i);
            if (t == null) throw new JBurnException(op, "tensor " + i + " is null");
            if (t.isClosed()) throw new JBurnException(op, "tensor " + i + " (" + describe(t) + ") is closed");
            if (reduce != null && t.dtype() == DType.PRED) throw new JBurnException(op, "cannot reduce pred tensor " + i + " (" + describe(t) + ")");
            if (reduce == ReduceOp.AVERAGE && !t.dtype().isFloat()) {
                throw new JBurnException(op, "AVERAGE needs floating-point tensors, tensor " + i + " is " + describe(t));
            }
        }
    }

    static void checkRoot(String op, int root, int size) {
        if (root < 0 || root >= size) throw new JBurnException(op, "root " + root + " outside the group of " + size + " replicas");
    }

    /** Fails naming {@code op} unless {@code other} (from replica {@code rank}) matches {@code mine} in count, dtypes and shapes. */
    static void checkSameLayout(String op, int myRank, List<Tensor> mine, int rank, List<TensorSpec> other) {
        if (other.size() != mine.size()) {
            throw new JBurnException(op, "replica " + rank + " gave " + other.size() + " tensors, replica " + myRank + " " + mine.size());
        }
        for (int i = 0; i < mine.size(); i++) {
            Tensor t = mine.get(i);
            TensorSpec o = other.get(i);
            if (o.dtype() != t.dtype() || !o.shape().equals(t.shape())) {
                throw new JBurnException(op, "tensor " + i + " is " + o.dtype().shortName() + o.shape() + " on replica " + rank
                        + " but " + describe(t) + " on replica " + myRank);
            }
        }
    }

    /** Dtype and shape of a tensor another replica holds. */
    record TensorSpec(DType dtype, dev.jburn.Shape shape) {
        static TensorSpec of(Tensor t) { return new TensorSpec(t.dtype(), t.shape()); }

        static List<TensorSpec> of(List<Tensor> ts) { return ts.stream().map(TensorSpec::of).toList(); }
    }

    /**
     * Position {@code i} reduced over {@code perRank} (rank order), as new tensors on {@code engines.get(i)}.
     * {@code perRank.get(r).get(i)} may live on any engine.
     */
    static List<Tensor> reduce(List<List<Tensor>> perRank, ReduceOp op, List<Engine> engines) {
        int n = perRank.size();
        List<Tensor> out = new ArrayList<>();
        try (TensorScope scope = Tensor.scope()) {
            for (int i = 0; i < engines.size(); i++) {
                Engine e = engines.get(i);
                Tensor mine = perRank.getFirst().get(i), acc = mine.to(e);
                // A group of one still returns a new tensor; x * 1 is x bit for bit, and stays on the device.
                if (n == 1 && acc == mine) acc = acc.multiply(1);
                for (int r = 1; r < n; r++) acc = acc.add(perRank.get(r).get(i).to(e));
                if (op == ReduceOp.AVERAGE) acc = acc.divide((double) n);
                out.add(scope.keep(acc));
            }
        }
        return out;
    }

    static List<Engine> engines(List<Tensor> ts) { return ts.stream().map(Tensor::engine).toList(); }

    static String describe(Tensor t) { return t.dtype().shortName() + t.shape(); }
}
