package dev.jburn.io;

import dev.jburn.JBurnException;

import java.nio.file.Path;

/** The faults of this package: a {@link JBurnException} whose op is the format and whose reason starts with the file. */
final class IoErrors {
    private IoErrors() {}

    static final String SAFETENSORS = "safetensors";
    static final String MODEL_FILE = "model file";

    static JBurnException safetensors(Path file, String what) { return new JBurnException(SAFETENSORS, file + ": " + what); }

    static JBurnException safetensors(Path file, String what, Throwable cause) {
        return new JBurnException(SAFETENSORS, file + ": " + what, cause);
    }

    static JBurnException modelFile(Path file, String what) { return new JBurnException(MODEL_FILE, file + ": " + what); }

    static JBurnException modelFile(Path file, String what, Throwable cause) {
        return new JBurnException(MODEL_FILE, file + ": " + what, cause);
    }

    /** A cause's message without the op prefix a {@link JBurnException} adds, for nesting in another fault. */
    static String message(Throwable t) {
        if (t instanceof JBurnException j) return j.op() + ": " + j.reason();
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }
}
