package dev.jburn.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** jburn train on small settings, then evaluate and summary on what it wrote. */
class TrainCommandTest {
    @Test
    void trainEvaluateAndSummary(@TempDir Path out) throws Exception {
        String s = MainTest.run(0, "train", "--limit", "1200", "--epochs", "2", "--batch-size", "64", "--out", out.toString());
        assertTrue(s.contains("jburn train: model mlp (203,530 parameters), engine cpu"), s);
        assertTrue(s.contains("data: "), s);
        assertTrue(s.contains("epoch 2/2: loss") && s.contains("val_accuracy"), s);
        assertTrue(s.contains("test: loss") && s.contains("accuracy"), s);
        assertTrue(Files.size(out.resolve("mlp.jburn")) > 800_000);
        assertTrue(Files.readString(out.resolve("history.csv")).startsWith("epoch,loss,accuracy,val_loss,val_accuracy,lr,samples_per_s\n"));
        assertTrue(Files.size(out.resolve("history.png")) > 1000);
        double acc = Double.parseDouble(s.replaceAll("(?s).*test: loss [0-9.]+, accuracy ([0-9.]+).*", "$1"));
        assertTrue(acc > 0.6, "two epochs on 1100 images already beat chance by far: " + acc);

        String e = MainTest.run(0, "evaluate", "--model", out.resolve("mlp.jburn").toString());
        assertTrue(e.contains(String.format(java.util.Locale.ROOT, "accuracy %.4f", acc)), "evaluate gives the accuracy train printed:\n" + e + "\n" + s);
        String sum = MainTest.run(0, "summary", "--model", out.resolve("mlp.jburn").toString());
        assertTrue(sum.contains("Total params: 203,530"), sum);
    }

    @Test
    void nprocStartsDataParallelProcessesAndRank0WritesTheModel(@TempDir Path out) throws Exception {
        String s = MainTest.run(0, "train", "--nproc", "2", "--limit", "640", "--epochs", "1", "--batch-size", "64",
                "--validation-split", "0", "--out", out.toString());
        assertTrue(s.contains("jburn train: 2 data-parallel processes"), s);
        assertTrue(Files.size(out.resolve("mlp.jburn")) > 800_000, "rank 0 wrote the model");
        String e = MainTest.run(0, "evaluate", "--model", out.resolve("mlp.jburn").toString());
        double acc = Double.parseDouble(e.replaceAll("(?s).*accuracy ([0-9.]+).*", "$1"));
        assertTrue(acc > 0.5, "one data-parallel epoch on 640 images learns: " + acc + "\n" + e);
        assertTrue(MainTest.run(1, "train", "--nproc", "0", "--out", out.toString()).contains("--nproc must be >= 1"));
    }

    @Test
    void aListOfEnginesTrainsOneReplicaThreadPerEngine(@TempDir Path out) {
        String s = MainTest.run(0, "train", "--engine", "cpu, cpu:0", "--limit", "640", "--epochs", "1", "--batch-size", "64",
                "--validation-split", "0", "--out", out.toString());
        assertTrue(s.contains("engine cpu,cpu,") && s.contains("data-parallel: 2 replica threads, one per engine"), s);
        double acc = Double.parseDouble(s.replaceAll("(?s).*test: loss [0-9.]+, accuracy ([0-9.]+).*", "$1"));
        assertTrue(acc > 0.5, "one data-parallel epoch on 640 images learns: " + acc + "\n" + s);
        s = MainTest.run(1, "train", "--engine", "cpu:1", "--out", out.toString());
        assertTrue(s.contains("engine 'cpu' drives one device (0); device 1 was asked for")
                || s.contains("engine 'cpu' has 1 device (cpu:0); there is no 'cpu:1'"), s);
        s = MainTest.run(1, "train", "--engine", "cpu,cpu", "--nproc", "2", "--out", out.toString());
        assertTrue(s.contains("do not go together"), s);
    }

    @Test
    void theEmbeddedSubsetLoadsAndBadOptionsAreClearErrors(@TempDir Path out) {
        DataSource d = DataSource.embedded();
        assertEquals(3000, d.data().train().size());
        assertEquals(600, d.data().test().size());
        assertTrue(d.description().contains("apt-get install dataset-fashion-mnist"));
        String s = MainTest.run(1, "train", "--model", "resnet", "--out", out.toString());
        assertTrue(s.contains("unknown model 'resnet'"), s);
        s = MainTest.run(1, "train", "--data", out.resolve("nope").toString(), "--out", out.toString());
        assertTrue(s.contains("no data directory"), s);
        s = MainTest.run(1, "train", "--precision", "int8", "--out", out.toString());
        assertTrue(s.contains("unknown --precision 'int8': use f32, bf16 or f16"), s);
        assertEquals(dev.jburn.train.Precision.mixedBf16(), TrainCommand.precision("BF16"));
        assertEquals(dev.jburn.train.Precision.full(), TrainCommand.precision("f32"));
        s = MainTest.run(1, "train", "--tf32", "--engine", "cpu", "--out", out.toString());
        assertTrue(s.contains("--tf32 needs --engine cuda") && s.contains("got --engine cpu"), s);
        s = MainTest.run(1, "train", "--tf32", "--out", out.toString());
        assertTrue(s.contains("--tf32 needs --engine cuda") && s.contains("(default)"), s);
        assertEquals(null, System.getProperty("jburn.cuda.tf32"), "a refused --tf32 sets nothing");
        s = MainTest.run(1, "evaluate", "--model", out.resolve("missing.jburn").toString());
        assertTrue(s.contains("missing.jburn"), s);
    }
}
