package dev.jburn.bench.peer;

import dev.jburn.Tensor;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.function.UnaryOperator;

/**
 * TEMPORARY bridge to JBurn ops that are being built in other branches (issue 3) and are not in this one yet:
 * {@code Tensor.conv(Tensor, ConvOptions)}, {@code Tensor.windowMax(int[], WindowOptions)} and
 * {@code LinAlg.cholesky(Tensor)}. They are looked up by name with {@code java.lang.reflect} so that the bench compiles
 * without them; when they are absent the JBurn cell reads "not built yet". Once they are merged, replace each
 * lookup by the direct call (the signatures below are the ones those branches define) and delete this class.
 */
final class PendingApi {
    /** How a JBurn cell reads while the op is missing. */
    static final String NOT_BUILT = "not built yet";

    private PendingApi() {}

    /** {@code x -> x.conv(kernel, ConvOptions.defaults().withPadding(Padding.SAME))} (stride 1, NCHW, OIHW). */
    static UnaryOperator<Tensor> convSame(Tensor kernel) throws PeerUnavailable {
        try {
            Class<?> options = Class.forName("dev.jburn.ConvOptions");
            Class<?> padding = Class.forName("dev.jburn.Padding");
            Object opts = options.getMethod("defaults").invoke(null);
            opts = options.getMethod("withPadding", padding).invoke(opts, padding.getField("SAME").get(null));
            Method conv = Tensor.class.getMethod("conv", Tensor.class, options);
            Object finalOpts = opts;
            return x -> (Tensor) invoke(conv, x, kernel, finalOpts);
        } catch (ReflectiveOperationException e) {
            throw notBuilt("Tensor.conv(Tensor, ConvOptions)", e);
        }
    }

    /**
     * {@code x -> x.windowMax(window, WindowOptions.defaults().withStrides(strides).withPadding(Padding.explicit(pads)))}.
     */
    static UnaryOperator<Tensor> windowMax(int[] window, int[] strides, int[][] pads) throws PeerUnavailable {
        try {
            Class<?> options = Class.forName("dev.jburn.WindowOptions");
            Class<?> padding = Class.forName("dev.jburn.Padding");
            Object opts = options.getMethod("defaults").invoke(null);
            opts = options.getMethod("withStrides", int[].class).invoke(opts, (Object) strides);
            Object explicit = padding.getMethod("explicit", int[][].class).invoke(null, (Object) pads);
            opts = options.getMethod("withPadding", padding).invoke(opts, explicit);
            Method windowMax = Tensor.class.getMethod("windowMax", int[].class, options);
            Object finalOpts = opts;
            return x -> (Tensor) invoke(windowMax, x, window, finalOpts);
        } catch (ReflectiveOperationException e) {
            throw notBuilt("Tensor.windowMax(int[], WindowOptions)", e);
        }
    }

    /** {@code a -> LinAlg.cholesky(a)} (lower triangular factor). */
    static UnaryOperator<Tensor> cholesky() throws PeerUnavailable {
        try {
            Method cholesky = Class.forName("dev.jburn.LinAlg").getMethod("cholesky", Tensor.class);
            return a -> (Tensor) invoke(cholesky, null, a);
        } catch (ReflectiveOperationException e) {
            throw notBuilt("LinAlg.cholesky(Tensor)", e);
        }
    }

    private static Object invoke(Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) throw r;
            if (e.getCause() instanceof Error err) throw err;
            throw new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static PeerUnavailable notBuilt(String api, ReflectiveOperationException e) {
        return new PeerUnavailable(NOT_BUILT + ": " + api + " is not in this build", e);
    }
}
