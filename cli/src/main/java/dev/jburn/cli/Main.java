package dev.jburn.cli;

import dev.jburn.JBurnException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * The {@code jburn} command line (picocli): {@code train} (the main job: a model on Fashion-MNIST from one
 * command), {@code evaluate}, {@code quantize}, {@code summary} and {@code serve} of a saved model, {@code example}, {@code doctor}, {@code tour}.
 * {@code jburn --help} and {@code jburn COMMAND --help} document every option.
 */
@Command(name = "jburn", mixinStandardHelpOptions = true, version = "JBurn 0.1.0-SNAPSHOT",
        description = "JBurn: tensors, models and training on the JVM.",
        subcommands = {TrainCommand.class, EvaluateCommand.class, QuantizeCommand.class, SummaryCommand.class, ServeCommand.class, ExampleCommand.class,
                DoctorCommand.class, TourCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    /** Without a command: the usage. */
    @Override public void run() { spec.commandLine().usage(spec.commandLine().getOut()); }

    public static void main(String[] args) { System.exit(run(args, System.out, System.err)); }

    /** Runs one command line; returns the exit status (0 ok, 1 a JBurn error, 2 a usage error). */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        cl.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        cl.setExecutionExceptionHandler((ex, line, parsed) -> {
            if (ex instanceof JBurnException j) {
                line.getErr().println("jburn " + line.getCommandName() + ": " + j.getMessage());
                return 1;
            }
            throw ex;
        });
        return cl.execute(args);
    }

    /** The stream of a picocli command's output, as a PrintStream for code that prints. */
    static PrintStream out(CommandLine.Model.CommandSpec spec) {
        PrintWriter w = spec.commandLine().getOut();
        return new PrintStream(new java.io.OutputStream() {
            @Override public void write(int b) { w.write(b); }

            @Override public void write(byte[] b, int off, int len) { w.write(new String(b, off, len, StandardCharsets.UTF_8)); }

            @Override public void flush() { w.flush(); }
        }, true, StandardCharsets.UTF_8);
    }
}
