package dev.jburn.bench.peer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** PeerBench's command line (see {@link #USAGE}). */
public record BenchOptions(boolean djlWorker, boolean quick, Set<String> only, Set<String> peers, Plan plan,
                           Path python, Path workDir, String openblasCore, List<String> forwarded) {
    public static final List<String> GROUPS = List.of("gemm", "conv", "pool", "cholesky", "models", "cnn");
    public static final List<String> PEERS = List.of("numpy", "numpy-haswell", "torch", "djl");

    public static final String USAGE = """
            usage: PeerBench [--quick] [--only GROUP[,GROUP...]] [--peers PEER[,PEER...]] [--rounds N] [--reps N]
                             [--warmup N] [--min-sample SECONDS] [--pause SECONDS] [--python PATH] [--work-dir DIR]
                             [--openblas-core CORE]
              --quick        3 rounds of 1 sample after 1 warm-up, 0.05 s samples, 0.1 s pauses, GEMM up to 1024,
                             Cholesky 512 only
              --only         workload groups: gemm, conv, pool, cholesky, models, cnn (the small CNN's conv kernels,
                             forward and backward) (default: all)
              --peers        peers beside JBurn: numpy (OPENBLAS_CORETYPE unset), numpy-haswell (=Haswell), torch,
                             djl (default: all)
              --rounds       rounds per workload: each runtime in turn takes one burst a round (default 5); a ratio
                             is the median of the rounds' ratios
              --reps         samples per burst (default 3; a round's figure is their median)
              --warmup       warm-up calls before the rounds (default 2; they go on for at least 2 × min-sample s)
              --min-sample   a sample repeats the call until it lasts at least this long (default 0.2)
              --pause        seconds of pause before each burst, while the last runtime's threads stop spinning
                             (default 0.2)
              --python       the Python with numpy and torch (default /usr/bin/python3)
              --work-dir     where the generated scripts and peer logs go (default bench/target/peers)
              --openblas-core  OPENBLAS_CORETYPE for the numpy and torch peers (default: unset, OpenBLAS detects the
                             CPU). For a CPU newer than the OpenBLAS build, which then falls back to its SSE3
                             "Prescott" kernels (OpenBLAS 0.3.21 on an Emerald Rapids Xeon), name its AVX-512 core:
                             SkylakeX or Cooperlake
            """;

    public static BenchOptions parse(String... args) {
        boolean worker = false, quick = false;
        Set<String> only = new LinkedHashSet<>(GROUPS), peers = new LinkedHashSet<>(PEERS);
        Integer rounds = null, reps = null, warmup = null;
        Double minSample = null, pause = null;
        Path python = Path.of("/usr/bin/python3");
        String openblasCore = null;
        Path workDir = Files.isDirectory(Path.of("bench")) ? Path.of("bench", "target", "peers") : Path.of("target", "peers");
        List<String> forwarded = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--djl-worker")) { worker = true; continue; }
            int start = i;
            switch (a) {
                case "--quick" -> quick = true;
                case "--only" -> only = pick(value(args, ++i, a), GROUPS, a);
                case "--peers" -> peers = pick(value(args, ++i, a), PEERS, a);
                case "--rounds" -> rounds = Integer.parseInt(value(args, ++i, a));
                case "--reps" -> reps = Integer.parseInt(value(args, ++i, a));
                case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, a));
                case "--min-sample" -> minSample = Double.parseDouble(value(args, ++i, a));
                case "--pause" -> pause = Double.parseDouble(value(args, ++i, a));
                case "--python" -> python = Path.of(value(args, ++i, a));
                case "--work-dir" -> workDir = Path.of(value(args, ++i, a));
                case "--openblas-core" -> openblasCore = coreName(value(args, ++i, a));
                case "-h", "--help" -> throw new IllegalArgumentException("");
                default -> throw new IllegalArgumentException("unknown option " + a);
            }
            forwarded.addAll(Arrays.asList(args).subList(start, i + 1)); // the option and its value, for the DJL worker
        }
        Plan plan = new Plan(rounds != null ? rounds : quick ? 3 : 5, reps != null ? reps : quick ? 1 : 3,
                warmup != null ? warmup : quick ? 1 : 2, minSample != null ? minSample : quick ? 0.05 : 0.2,
                pause != null ? pause : quick ? 0.1 : 0.2);
        return new BenchOptions(worker, quick, only, peers, plan, python, workDir, openblasCore, forwarded);
    }

    /** The workloads these options select, in table order. */
    public List<PeerWorkload> workloads() {
        List<PeerWorkload> all = new ArrayList<>();
        for (int n : quick ? new int[] {256, 512, 1024} : new int[] {256, 512, 1024, 2048}) all.add(new GemmWorkload(n));
        all.add(new ConvWorkload());
        all.addAll(ConvGradientWorkload.all());
        all.add(new MaxPoolWorkload());
        for (int n : quick ? new int[] {512} : new int[] {512, 1024}) all.add(new CholeskyWorkload(n));
        for (ModelInferenceWorkload.Arch a : ModelInferenceWorkload.Arch.values()) {
            for (int b : new int[] {1, 32, 256}) all.add(new ModelInferenceWorkload(a, b));
        }
        all.addAll(CnnConvWorkload.all());
        return all.stream().filter(w -> only.contains(w.group())).toList();
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) throw new IllegalArgumentException(option + " needs a value");
        return args[i];
    }

    /** A core name as OPENBLAS_CORETYPE takes it: letters and digits only (it goes into a child's environment). */
    private static String coreName(String v) {
        if (!v.matches("[A-Za-z][A-Za-z0-9]*")) throw new IllegalArgumentException("--openblas-core: not a core name: '" + v + "'");
        return v;
    }

    private static Set<String> pick(String list, List<String> known, String option) {
        Set<String> out = new LinkedHashSet<>();
        for (String s : list.split(",")) {
            String v = s.strip().toLowerCase(java.util.Locale.ROOT);
            if (v.isEmpty()) continue;
            if (!known.contains(v)) throw new IllegalArgumentException(option + ": unknown '" + v + "'; known: " + known);
            out.add(v);
        }
        if (out.isEmpty()) throw new IllegalArgumentException(option + ": empty list; known: " + known);
        return out;
    }

    @Override public String toString() { return "BenchOptions" + Arrays.asList(djlWorker, quick, only, peers, plan); }
}
