package dev.jburn;

import java.util.Collection;

/** Argument checks at the public API's edge: a null becomes a {@link JBurnException} naming the op, as any other bad input. */
final class Args {
    private Args() {}

    /** {@code e} under the name of {@code op}, the op the user called, when an op it is built from refused. */
    static JBurnException renamed(JBurnException e, String op) {
        return e.op().equals(op) ? e : new JBurnException(op, e.reason(), e);
    }

    /** Both checks of {@link #nonNull(String, String, Object)}, for an entry point with two arguments. */
    static void nonNull(String op, String name, Object value, String name2, Object value2) {
        nonNull(op, name, value);
        nonNull(op, name2, value2);
    }

    /** Fails when {@code value} is null, or is an array or collection holding a null. */
    static void nonNull(String op, String name, Object value) {
        if (value == null) throw new JBurnException(op, name + " must not be null");
        if (value instanceof Object[] array) {
            for (int i = 0; i < array.length; i++) {
                if (array[i] == null) throw new JBurnException(op, name + "[" + i + "] must not be null");
            }
        } else if (value instanceof Collection<?> c) {
            int i = 0;
            for (Object o : c) {
                if (o == null) throw new JBurnException(op, name + "[" + i + "] must not be null");
                i++;
            }
        }
    }
}
