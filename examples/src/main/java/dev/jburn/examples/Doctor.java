package dev.jburn.examples;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.EngineInfo;
import dev.jburn.Shape;
import dev.jburn.Tensor;

import java.io.PrintStream;

/** {@code jburn doctor}: what engines exist here, which one is used, and a short session that proves it computes. */
public final class Doctor {
    private Doctor() {}

    /** Runs the doctor report on {@code out}; returns the exit status. */
    public static int run(String[] args, PrintStream out) {
        Runtime rt = Runtime.getRuntime();
        out.printf("JBurn doctor%n");
        out.printf("  Java %s (%s), %d cores, max heap %d MiB%n", Runtime.version(), System.getProperty("java.vendor"),
                rt.availableProcessors(), rt.maxMemory() >> 20);
        out.printf("%nEngines found (highest priority first):%n");
        for (EngineInfo info : Engine.available()) out.println("  " + info);
        Engine engine = Engine.defaultEngine();
        out.printf("%nDefault engine: %s   (override with -Djburn.engine=NAME or JBURN_ENGINE=NAME)%n", engine.name());

        out.printf("%nA short tensor session on '%s' (each line: a Java expression ==> its value):%n", engine.name());
        try (var scope = Tensor.scope()) {
            Tensor a = Tensor.of(new float[][] {{1, 2, 3}, {4, 5, 6}});
            show(out, "var a = Tensor.of(new float[][] {{1, 2, 3}, {4, 5, 6}})", a);
            show(out, "a.asType(DType.BF16)", a.asType(DType.BF16));
            show(out, "a.reshape(3, 2)", a.reshape(3, 2));
            show(out, "Tensor.iota(Shape.of(2, 3), DType.S32, 1)", Tensor.iota(Shape.of(2, 3), DType.S32, 1));
            show(out, "Tensor.linspace(0, 1, 5, DType.F64)", Tensor.linspace(0, 1, 5, DType.F64));
            show(out, "Tensor.eye(3, DType.U8)", Tensor.eye(3, DType.U8));
            show(out, "a.transpose()", a.transpose());
            show(out, "a.dot(a.transpose())", a.dot(a.transpose()));
            show(out, "a.sum(new int[] {1})", a.sum(new int[] {1}));
            show(out, "a.argmax(1)", a.argmax(1));
            show(out, "Tensor.of(3f, Float.NaN, -1f, 2f).sort()", Tensor.of(3f, Float.NaN, -1f, 2f).sort());
            show(out, "a.pad(0, new int[][] {{0, 0, 0}, {1, 1, 1}})", a.pad(0, new int[][] {{0, 0, 0}, {1, 1, 1}}));
        }
        out.printf("%nAll good.%n");
        return 0;
    }

    private static void show(PrintStream out, String expr, Tensor t) { Shown.print(out, "  ", expr, t); }
}
