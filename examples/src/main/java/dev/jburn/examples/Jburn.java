package dev.jburn.examples;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * The {@code jburn} command line.
 *
 * <pre>
 * jburn doctor     list every engine found, available or not and why, then run a short tensor session
 * jburn tour       the README's tour of the tensor API
 * jburn example NAME   a runnable example ({@code jburn example --list})
 * jburn help       this text
 * </pre>
 */
public final class Jburn {
    private Jburn() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command; returns the process exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        String cmd = args.length == 0 ? "help" : args[0];
        String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
        try {
            return switch (cmd) {
                case "doctor" -> Doctor.run(rest, out);
                case "tour" -> {
                    Tour.main(rest);
                    yield 0;
                }
                case "example" -> Examples.run(rest, out, err);
                case "help", "-h", "--help" -> {
                    usage(out);
                    yield 0;
                }
                default -> {
                    err.println("jburn: unknown command '" + cmd + "'");
                    usage(err);
                    yield 2;
                }
            };
        } catch (dev.jburn.JBurnException e) {
            err.println("jburn " + cmd + ": " + e.getMessage());
            return 1;
        }
    }

    private static void usage(PrintStream out) {
        out.println("usage: jburn <command>");
        out.println("  doctor   list every engine found (available or not, and why), then run a short tensor session");
        out.println("  tour     the README's tour of the tensor API");
        out.println("  example  a runnable example: jburn example NAME (jburn example --list)");
        out.println("  help     show this text");
    }
}
