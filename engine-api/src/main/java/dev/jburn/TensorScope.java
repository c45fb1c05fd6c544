package dev.jburn;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Frees every tensor made inside it, on this thread, when it closes — deterministic release
 * for loops that make many temporaries (GPU memory can't wait for the garbage collector).
 * Scopes nest; {@link #keep} lets a result outlive the scope.
 *
 * <pre>{@code
 * Tensor result;
 * try (TensorScope scope = Tensor.scope()) {
 *     Tensor x = Tensor.of(1f, 2f, 3f);
 *     result = scope.keep(x.multiply(x).sum());
 * } // x and x*x are freed here; result is not
 * }</pre>
 */
public final class TensorScope implements AutoCloseable {
    private static final ThreadLocal<ArrayDeque<TensorScope>> STACK = ThreadLocal.withInitial(ArrayDeque::new);

    private final List<Tensor> owned = new ArrayList<>();
    private final Set<Tensor> kept = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Thread thread = Thread.currentThread();
    private boolean closed;

    TensorScope() {
        STACK.get().push(this);
    }

    /** Registers a new tensor with the innermost open scope of this thread, if any. */
    static void track(Tensor t) {
        ArrayDeque<TensorScope> s = STACK.get();
        if (!s.isEmpty()) s.peek().owned.add(t);
    }

    /**
     * Keeps {@code t} alive past this scope: it moves to the enclosing scope, or to no scope
     * (the cleaner, or your own {@code close()}), and is returned.
     */
    public Tensor keep(Tensor t) {
        kept.add(t);
        return t;
    }

    /** Closes every tensor made in this scope except those kept. */
    @Override
    public void close() {
        if (closed) return;
        if (Thread.currentThread() != thread) {
            throw new JBurnException("scope", "a TensorScope must be closed on the thread that opened it");
        }
        closed = true;
        ArrayDeque<TensorScope> s = STACK.get();
        s.remove(this);
        TensorScope outer = s.peek();
        for (Tensor t : owned) {
            if (kept.contains(t)) {
                if (outer != null) outer.owned.add(t);
            } else {
                t.close();
            }
        }
        owned.clear();
    }
}
