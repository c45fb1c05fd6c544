package dev.jburn.nn.internal;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;

/**
 * Threefry-2x32-20 written with tensor ops, so that keys and random bits can be computed from a
 * key that is itself a traced tensor (the key of a compiled training step). It is the same
 * cipher and counter layout as {@code dev.jburn.Prng}: {@link #bits} equals
 * {@code Prng.bits(key, shape, U32)} and {@link #foldIn} equals {@code Prng.foldIn},
 * bit for bit (tested), eagerly and under {@code Jit}.
 */
public final class KeyBits {
    private KeyBits() {}

    private static final int[] ROT_ODD = {13, 15, 26, 6};
    private static final int[] ROT_EVEN = {17, 29, 16, 24};
    private static final long PARITY = 0x1BD11BDAL;

    /** {@code shape.size()} random u32 words for {@code key}, shaped {@code shape}. */
    public static Tensor bits(Tensor key, Shape shape) {
        check(key);
        long n = shape.size();
        if (n == 0) return Tensor.zeros(Shape.of(0), DType.U32).to(key.engine()).reshape(shape);
        if (n > Integer.MAX_VALUE - 8) throw new JBurnException(dev.jburn.spi.UserOp.name("random"), "too many random words requested: " + n);
        int count = (int) n;
        int half = (count + 1) / 2;
        Tensor i = Tensor.iota(Shape.of(half), DType.U32).to(key.engine());
        Tensor x1 = i.add(half);
        if (count % 2 == 1) x1 = i.less(half - 1).select(x1, zeroLike(x1));
        Tensor[] y = block(key, i, x1);
        Tensor out = count % 2 == 0 ? Tensor.concatenate(0, y[0], y[1])
                : count == 1 ? y[0] : Tensor.concatenate(0, y[0], y[1].slice(new int[] {0}, new int[] {half - 1}));
        return out.reshape(shape);
    }

    /** The key derived from {@code key} and {@code data}, as {@code Prng.foldIn}. */
    public static Tensor foldIn(Tensor key, long data) {
        check(key);
        Tensor x0 = Tensor.full(Shape.of(1), DType.U32, data >>> 32).to(key.engine());
        Tensor x1 = Tensor.full(Shape.of(1), DType.U32, data & 0xFFFF_FFFFL).to(key.engine());
        Tensor[] y = block(key, x0, x1);
        return Tensor.concatenate(0, y[0], y[1]);
    }

    /**
     * The key of stream {@code index} of {@code key}: {@code (k0, k1 ^ (0x9E3779B9·(index + 1)))}, two ops. Threefry is a
     * keyed pseudo-random function whose outputs for distinct keys (related ones included) are independent, so a cheap
     * derivation is enough here, where {@link #foldIn}'s full block would add ~100 scalar ops to every compiled step.
     */
    public static Tensor stream(Tensor key, long index) {
        check(key);
        long mix = (0x9E3779B9L * (index + 1)) & 0xFFFF_FFFFL;
        Tensor m = Tensor.fromArray(new long[] {0, mix}, DType.U32).to(key.engine());
        return key.bitwiseXor(m);
    }

    /** A keep-mask: {@code true} with probability {@code 1 - rate}, from {@link #bits}. */
    public static Tensor keepMask(Tensor key, Shape shape, double rate) {
        // P(bits >= t) = 1 - t / 2^32 with t = round(rate * 2^32).
        long threshold = Math.min(0xFFFF_FFFFL, Math.round(rate * 4294967296.0));
        return bits(key, shape).greaterEqual(Tensor.scalar(threshold, DType.U32).to(key.engine()));
    }

    private static Tensor[] block(Tensor key, Tensor x0, Tensor x1) {
        Tensor k0 = key.slice(new int[] {0}, new int[] {1});
        Tensor k1 = key.slice(new int[] {1}, new int[] {1});
        Tensor[] ks = {k0, k1, k0.bitwiseXor(k1).bitwiseXor(Tensor.full(Shape.of(1), DType.U32, PARITY).to(key.engine()))};
        x0 = x0.add(ks[0]);
        x1 = x1.add(ks[1]);
        for (int r = 1; r <= 5; r++) {
            int[] rot = (r & 1) == 1 ? ROT_ODD : ROT_EVEN;
            for (int s : rot) {
                x0 = x0.add(x1);
                x1 = x1.leftShift(s).bitwiseOr(x1.rightShift(32 - s)).bitwiseXor(x0);
            }
            x0 = x0.add(ks[r % 3]);
            x1 = x1.add(ks[(r + 1) % 3]).add(r);
        }
        return new Tensor[] {x0, x1};
    }

    private static Tensor zeroLike(Tensor t) { return t.multiply(0); }

    private static void check(Tensor key) {
        if (key == null || key.dtype() != DType.U32 || !key.shape().equals(Shape.of(2))) {
            throw new JBurnException("random", "expected a key of type u32 and shape [2] (see Prng.key), got "
                    + (key == null ? "null" : key.dtype().shortName() + key.shape()));
        }
    }
}
