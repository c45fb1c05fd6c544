package dev.jburn.cuda;

import dev.jburn.DType;
import dev.jburn.Engine;
import dev.jburn.JBurnException;
import dev.jburn.Prng;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import dev.jburn.data.TensorDataset;
import dev.jburn.dist.Communicator;
import dev.jburn.dist.Communicators;
import dev.jburn.dist.ReduceOp;
import dev.jburn.dist.Rendezvous;
import dev.jburn.dist.Store;
import dev.jburn.nn.Activation;
import dev.jburn.nn.Model;
import dev.jburn.nn.ModelState;
import dev.jburn.optim.Optimizers;
import dev.jburn.train.DataParallel;
import dev.jburn.train.Fit;
import dev.jburn.train.FitResult;
import dev.jburn.train.Losses;
import dev.jburn.train.Metrics;
import dev.jburn.train.Trainer;

import java.util.List;
import java.util.Locale;

/**
 * The NCCL checks of {@code gpu/run-nccl-h200.sh}, on the cuda engine:
 * <ul>
 *   <li>{@code one}: a group of one rank: all-reduce (sum, average; f32, f64, bf16, s32), broadcast, barrier and
 *       the errors, then a data-parallel fit of one replica against the plain fit;</li>
 *   <li>{@code ranks}: one of the processes {@code Launcher} starts ({@code RANK}, {@code WORLD_SIZE}, ...):
 *       all-reduce and broadcast across the ranks, then the data-parallel fit, which rank 0 compares with one
 *       replica on the combined batch.</li>
 *   <li>{@code devices}: every GPU of this process as an engine of its own ({@code cuda:0}, {@code cuda:1}, ...):
 *       the names and their errors, one thread alternating between engines (the context follows), tensors moved
 *       between devices, and a threaded data-parallel fit with one replica per device (NCCL between them) against
 *       one replica; with one GPU, two replicas on it through {@code ThreadCommunicator} instead.</li>
 * </ul>
 * Prints one line per check ({@code ok ...} / {@code FAIL ...}) and exits 1 when one fails. A second argument names
 * another engine ({@code ranks cpu}: the same launch through the store communicator, to try the script without a GPU).
 */
public final class NcclCheck {
    private NcclCheck() {}

    private static int failures;

    public static void main(String[] args) {
        String mode = args.length > 0 ? args[0] : "one";
        Engine gpu = Engine.select(args.length > 1 ? args[1] : "cuda");
        System.out.println("nccl provider: " + new NcclProvider().availability());
        if (mode.equals("one")) one(gpu);
        else if (mode.equals("devices")) devices();
        else ranks(gpu);
        System.out.println(failures == 0 ? "nccl check " + mode + ": all ok" : "nccl check " + mode + ": " + failures + " FAILED");
        System.exit(failures == 0 ? 0 : 1);
    }

    private static void one(Engine gpu) {
        try (Store store = Store.inMemory(); Communicator c = Communicators.create(gpu, 0, 1, store)) {
            System.out.println("communicator: " + c.describe());
            check("one-rank communicator is NCCL", c instanceof NcclCommunicator, c.describe());
            Tensor f = Tensor.arange(0, 1000, 1, DType.F32).to(gpu), d = Tensor.arange(0, 7, 1, DType.F64).to(gpu);
            Tensor h = Tensor.arange(0, 64, 1, DType.F32).asType(DType.BF16).to(gpu), i = Tensor.of(3, -4, 5).to(gpu);
            List<Tensor> sum = c.allReduce(List.of(f, d, h, i), ReduceOp.SUM);
            check("all-reduce sum of one rank is the input (f32, f64, bf16, s32)", same(f, sum.get(0)) && same(d, sum.get(1)) && same(h, sum.get(2)) && same(i, sum.get(3)), "");
            check("all-reduce average of one rank is the input", same(f, c.allReduce(f, ReduceOp.AVERAGE)), "");
            check("broadcast of one rank is the input", same(d, c.broadcast(List.of(d), 0).getFirst()), "");
            c.barrier();
            check("barrier returns", true, "");
            expectFailure("a cpu tensor", () -> c.allReduce(Tensor.of(1f).to(Engine.select("cpu")), ReduceOp.SUM), "cpu");
            expectFailure("average of s32", () -> c.allReduce(i, ReduceOp.AVERAGE), "AVERAGE");
            expectFailure("broadcast root 1 of 1", () -> c.broadcast(List.of(f), 1), "root");
            fitCheck(gpu, DataParallel.of(c), 0, c.size() + " rank(s)");
        }
    }

    private static void ranks(Engine gpu) {
        try (Rendezvous r = Rendezvous.fromEnvironment(); Communicator c = Communicators.create(gpu, r)) {
            System.out.println("rank " + r.rank() + " of " + r.size() + ": " + c.describe() + ", NCCL_HOSTID=" + System.getenv("NCCL_HOSTID")
                    + ", NCCL_NVLS_ENABLE=" + System.getenv("NCCL_NVLS_ENABLE"));
            if (gpu.name().equals("cuda")) check("process group is NCCL", c instanceof NcclCommunicator, c.describe());
            int n = r.size();
            Tensor mine = Tensor.full(Shape.of(1 << 20), DType.F32, r.rank() + 1.0).to(gpu);
            float[] sum = c.allReduce(mine, ReduceOp.SUM).toFloatArray(), avg = c.allReduce(mine, ReduceOp.AVERAGE).toFloatArray();
            check("all-reduce sum over " + n + " ranks (4 MB)", sum[0] == n * (n + 1) / 2f && sum[sum.length - 1] == sum[0], "got " + sum[0]);
            check("all-reduce average", avg[0] == (n + 1) / 2f, "got " + avg[0]);
            float[] b = c.broadcast(List.of(Tensor.of(10f * r.rank()).to(gpu)), n - 1).getFirst().toFloatArray();
            check("broadcast from the last rank", b[0] == 10f * (n - 1), "got " + b[0]);
            c.barrier();
            fitCheck(gpu, DataParallel.of(c), r.rank(), c.size() + " rank(s)");
        }
    }

    private static void devices() {
        int count = new CudaProvider().deviceCount();
        Engine first = Engine.select("cuda:0");
        System.out.println("devices: " + count + "; cuda:0 = " + first + " on " + ((CudaBackend) first.backend()).device().name);
        check("'cuda:0' is the plain 'cuda' engine (default device 0)", first == Engine.select("cuda"), "");
        expectFailure("'cuda:" + count + "' (past the last device)", () -> Engine.select("cuda:" + count), "there is no 'cuda:" + count + "'");
        List<Engine> gpus = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) gpus.add(Engine.select("cuda:" + i));
        // A second engine on device 0 (its own stream and allocator): one thread alternates between the two.
        Engine twin = Engine.create(new CudaProvider(), dev.jburn.spi.EngineConfig.fromSystemProperties());
        List<Engine> alternate = count >= 2 ? gpus : List.of(first, twin);
        Tensor x = Tensor.arange(0, 4096, 1, DType.F32).divide(512.0);
        double[] want = x.exp().multiply(3.0).toDoubleArray();
        boolean ok = true;
        Tensor moving = x.to(alternate.getFirst());
        for (int round = 0; round < 6; round++) {
            Engine e = alternate.get(round % alternate.size());
            Tensor here = moving.to(e);
            Tensor y = here.exp().multiply(3.0);
            ok &= java.util.Arrays.equals(want, y.toDoubleArray()) || maxDiff(want, y.toDoubleArray()) < 1e-6;
            moving = here;
        }
        check("one thread alternating between " + alternate + ", moving a tensor each time: exp·3 right every time", ok, "");
        twin.backend().close();
        // Threads, one replica per device (NCCL between them); on one GPU two replicas on it (ThreadCommunicator).
        List<Engine> replicas = count >= 2 ? gpus : List.of(first, first);
        fitCheck(first, DataParallel.threads(replicas), 0, "threads on " + replicas);
        System.out.println("fallbacks: " + gpus.stream().map(g -> g + "=" + g.fallbackCounts()).toList());
    }

    private static double maxDiff(double[] a, double[] b) {
        double worst = 0;
        for (int i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(a[i])));
        return worst;
    }

    /** A data-parallel fit ({@code dp}) against one replica on the combined batch (rank 0 compares). */
    private static void fitCheck(Engine gpu, DataParallel dp, int rank, String what) {
        Model m = Model.input("x", Shape.of(-1, 64)).dense(256, Activation.RELU).dense(10).named("mlp");
        Tensor x = Prng.normal(Prng.key(7), Shape.of(3840, 64), DType.F32, 0, 1).values();
        Tensor y = x.slice(new int[] {0, 0}, new int[] {3840, 10}).argmax(1).asType(DType.S32);
        TensorDataset d = TensorDataset.of(x.to(gpu), y.to(gpu));
        Trainer t = Trainer.of(m, Losses.softmaxCrossEntropy(), Optimizers.sgd(0.1, 0.9, false)).metrics(Metrics.accuracy());
        Fit f = Fit.epochs(1).batchSize(192).shuffle(3).quiet(); // 20 steps
        long t0 = System.nanoTime();
        FitResult parallel = t.fit(m.init(Prng.key(1)).to(gpu), d, f.dataParallel(dp));
        double dpSeconds = (System.nanoTime() - t0) / 1e9;
        if (rank != 0) return;
        t0 = System.nanoTime();
        FitResult one = t.fit(m.init(Prng.key(1)).to(gpu), d, f);
        double oneSeconds = (System.nanoTime() - t0) / 1e9;
        double worst = maxRelativeDifference(one.state().model(), parallel.state().model());
        check(String.format(Locale.ROOT, "data-parallel fit over %s = one replica on the combined batch, 20 steps (max rel. diff %.2e; loss %.5f vs %.5f; accuracy %.4f vs %.4f)",
                what, worst, parallel.history().last("loss"), one.history().last("loss"), parallel.history().last("accuracy"), one.history().last("accuracy")),
                worst < 1e-4 && Math.abs(parallel.history().last("accuracy") - one.history().last("accuracy")) < 1e-6, "");
        System.out.printf(Locale.ROOT, "time (first epoch, compiles included): data-parallel %.2f s, one replica %.2f s%n", dpSeconds, oneSeconds);
    }

    private static double maxRelativeDifference(ModelState a, ModelState b) {
        double worst = 0;
        for (var e : a.params().entrySet()) {
            float[] p = e.getValue().toFloatArray(), q = b.params().get(e.getKey()).toFloatArray();
            for (int i = 0; i < p.length; i++) worst = Math.max(worst, Math.abs(p[i] - q[i]) / Math.max(1, Math.abs(p[i])));
        }
        return worst;
    }

    private static boolean same(Tensor a, Tensor b) {
        return a.dtype() == b.dtype() && a.shape().equals(b.shape()) && java.util.Arrays.equals(a.toDoubleArray(), b.toDoubleArray());
    }

    private static void expectFailure(String what, Runnable r, String mention) {
        try {
            r.run();
            check(what + " is refused", false, "no exception");
        } catch (JBurnException e) {
            check(what + " is refused: " + e.getMessage(), e.getMessage().contains(mention), "");
        }
    }

    private static void check(String what, boolean ok, String detail) {
        System.out.println((ok ? "ok   " : "FAIL ") + what + (ok || detail.isEmpty() ? "" : " (" + detail + ")"));
        if (!ok) failures++;
    }
}
