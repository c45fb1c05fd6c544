package dev.jburn.train;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How data-parallel training groups gradients for the all-reduce, as PyTorch DDP does: in reverse parameter order
 * (the order backward produces them), into flat buckets of one dtype of about {@code capBytes} each (25 MB by
 * default), so that one collective moves many small tensors and a large model is not one huge transfer. A
 * parameter larger than the cap gets a bucket of its own. Flattening happens inside the compiled gradient step
 * and splitting inside the compiled apply step, so the buckets cost no extra kernel launches of their own.
 *
 * @param buckets the buckets, first to be reduced first
 */
record GradientBuckets(List<Bucket> buckets) {
    /** PyTorch DDP's default bucket size. */
    static final long DEFAULT_CAP_BYTES = 25L << 20;

    /**
     * One flat bucket.
     *
     * @param dtype  the dtype of every gradient in it
     * @param names  the parameters, in bucket order
     * @param shapes their shapes
     */
    record Bucket(DType dtype, List<String> names, List<Shape> shapes) {
        long elements() { return shapes.stream().mapToLong(Shape::size).sum(); }
    }

    /** Buckets for {@code names} (in parameter order) of {@code params}, each at most {@code capBytes} unless one parameter is larger. */
    static GradientBuckets plan(List<String> names, Map<String, Tensor> params, long capBytes) {
        if (capBytes < 1) throw new JBurnException("dataParallel", "the bucket size must be >= 1 byte, got " + capBytes);
        List<Bucket> out = new ArrayList<>();
        List<String> cur = new ArrayList<>();
        List<Shape> shapes = new ArrayList<>();
        DType type = null;
        long bytes = 0;
        for (int i = names.size() - 1; i >= 0; i--) {
            Tensor p = params.get(names.get(i));
            long b = p.dtype().byteSize(p.shape());
            if (!cur.isEmpty() && (p.dtype() != type || bytes + b > capBytes)) {
                out.add(new Bucket(type, List.copyOf(cur), List.copyOf(shapes)));
                cur.clear();
                shapes.clear();
                bytes = 0;
            }
            type = p.dtype();
            cur.add(names.get(i));
            shapes.add(p.shape());
            bytes += b;
        }
        if (!cur.isEmpty()) out.add(new Bucket(type, List.copyOf(cur), List.copyOf(shapes)));
        return new GradientBuckets(List.copyOf(out));
    }

    /** Each bucket's gradients as one flat tensor (traced). */
    List<Tensor> flatten(Map<String, Tensor> grads) {
        List<Tensor> out = new ArrayList<>();
        for (Bucket b : buckets) {
            List<Tensor> parts = new ArrayList<>();
            for (String n : b.names()) parts.add(grads.get(n).reshape(-1));
            out.add(parts.size() == 1 ? parts.getFirst() : Tensor.concatenate(parts, 0));
        }
        return out;
    }

    /** The gradients by parameter name from the flat buckets (traced), in {@code order}. */
    Map<String, Tensor> split(List<Tensor> flat, List<String> order) {
        Map<String, Tensor> byName = new LinkedHashMap<>();
        for (int k = 0; k < buckets.size(); k++) {
            Bucket b = buckets.get(k);
            int offset = 0;
            for (int j = 0; j < b.names().size(); j++) {
                Shape s = b.shapes().get(j);
                int len = Math.toIntExact(s.size());
                Tensor part = b.names().size() == 1 ? flat.get(k) : flat.get(k).slice(new int[] {offset}, new int[] {len});
                byName.put(b.names().get(j), part.reshape(s));
                offset += len;
            }
        }
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (String n : order) out.put(n, byName.get(n));
        return out;
    }
}
