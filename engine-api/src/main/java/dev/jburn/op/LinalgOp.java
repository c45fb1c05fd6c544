package dev.jburn.op;

/** Linear algebra as Nx.LinAlg, batched over leading axes; outputs are floating point. */
public enum LinalgOp implements Op {
    CHOLESKY, TRIANGULAR_SOLVE, LU, QR, EIGH, SVD, SOLVE, INVERT, DETERMINANT, NORM;

    /** Computed once: op names are on every op's hot path (validation messages, engine checks). */
    private final String opName = Op.camel(name());

    @Override public String opName() { return opName; }

    /** Solve, invert, determinant and norm are built from the factorizations and other ops. */
    @Override public boolean composite() {
        return switch (this) {
            case SOLVE, INVERT, DETERMINANT, NORM -> true;
            default -> false;
        };
    }
}
