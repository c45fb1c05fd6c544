package dev.jburn.examples;

import java.io.PrintStream;

/** Prints an expression and its value, {@code expr ==> value}, as jshell shows a result; used by the tour and the doctor. */
final class Shown {
    private Shown() {}

    /** {@code indent + expr + " ==> " + value}, the value's further lines indented by {@code indent}. */
    static void print(PrintStream out, String indent, String expr, Object value) {
        out.println(indent + expr + " ==> " + String.valueOf(value).replace("\n", "\n" + indent));
    }
}
