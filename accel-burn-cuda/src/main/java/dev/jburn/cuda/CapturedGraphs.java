package dev.jburn.cuda;

import dev.jburn.graph.Graph;
import dev.jburn.graph.Interpreter;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;
import dev.jburn.spi.ReplayCost;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Compiled graphs replayed as CUDA graphs. A training step is a few dozen small kernels; launched one
 * by one, each costs the interpreter's bookkeeping and a driver call (several µs), which is most of a
 * small model's step. After a graph has run {@link #PROBE_RUNS} times the ordinary way with no host
 * transfer and no cpu fallback, its next run is captured from the engine's stream
 * ({@code cuStreamBeginCapture}) into one executable graph, and every later run is three calls:
 * copy the inputs in, {@code cuGraphLaunch}, copy the results out.
 *
 * <p><b>Why the copies.</b> A graph replays the device addresses it was captured with. Its inputs
 * therefore live in fixed buffers of its own (the caller's tensors are copied in, {@link BatchedCopy}),
 * its intermediates in a {@link CachingAllocator.Pool} that no other work may use while the graph
 * lives, and its results are copied out to fresh buffers, because the next replay overwrites them.
 * Constants are uploaded once, before the capture (a capture must not read pinned host memory whose
 * contents change). Graphs whose probe runs moved data between host and device (a fallback, a
 * bounds check read back) are never captured and keep running the ordinary way; so is any graph whose
 * capture fails. A few graphs are kept, least recently used first out.
 *
 * <p>Off with {@code -Djburn.cuda.graphs=false} ({@link CudaConfig#graphs()}).
 */
final class CapturedGraphs implements AutoCloseable {
    /** Ordinary runs before a capture: the first compiles kernels and lets cuBLAS set itself up, the second shows no host traffic. */
    static final int PROBE_RUNS = 2;
    /** Captured graphs kept per engine. */
    static final int MAX_GRAPHS = 8;
    /**
     * When a capture pays for its copies: ~4 µs of host time saved per launch (a driver launch is 3-4 µs, plus the
     * interpreter's bookkeeping), copies at 400 GB/s (an H200 copies at ~3.8 TB/s read + write).
     */
    static final ReplayCost COST = new ReplayCost(4e-6, 400e9);

    /** Runs a graph the ordinary way on the backend; {@code constants} (may be null) supplies uploaded constants. */
    @FunctionalInterface
    interface Run {
        List<Buffer> run(Graph graph, List<Operand> inputs, boolean[] donated, Map<Node, Buffer> constants);
    }

    private final CudaBackend backend;
    private final CudaDevice device;
    private final CachingAllocator allocator;
    private final Map<Graph, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long captures, replays, refused;

    private static final class Entry {
        int runs;
        String refusal;
        Captured captured;
    }

    /** One executable graph, its fixed buffers and its pool. */
    private final class Captured {
        final MemorySegment exec;
        final CachingAllocator.Pool pool;
        final List<CudaBuffer> inputs;
        final List<Buffer> outputs;
        final List<Buffer> constants;

        Captured(MemorySegment exec, CachingAllocator.Pool pool, List<CudaBuffer> inputs, List<Buffer> outputs, List<Buffer> constants) {
            this.exec = exec;
            this.pool = pool;
            this.inputs = inputs;
            this.outputs = outputs;
            this.constants = constants;
        }

        void close() {
            device.driver.graphExecDestroy(exec);
            inputs.forEach(Buffer::release);
            outputs.forEach(Buffer::release);
            constants.forEach(Buffer::release);
            allocator.releasePool(pool);
        }
    }

    CapturedGraphs(CudaBackend backend, CudaDevice device, CachingAllocator allocator) {
        this.backend = backend;
        this.device = device;
        this.allocator = allocator;
    }

    /** Runs {@code graph}: replayed when captured, else the ordinary way (probing or capturing it when due). */
    List<Buffer> execute(Graph graph, List<Operand> inputs, boolean[] donated, Run run) {
        try (var _ = device.enter()) {
            Entry e = entries.get(graph);
            if (e == null) {
                e = new Entry();
                entries.put(graph, e);
                evict();
            }
            if (e.captured != null) {
                if (fits(e.captured, inputs)) return replay(e.captured, inputs);
                return run.run(graph, inputs, donated, null);
            }
            if (e.refusal != null) return run.run(graph, inputs, donated, null);
            if (++e.runs <= PROBE_RUNS) {
                long before = backend.hostTraffic(), t0 = System.nanoTime();
                List<Buffer> out = run.run(graph, inputs, donated, null);
                if (VERBOSE) System.err.printf("cuda: probe run %d of a graph of %d nodes: %.1f ms%n", e.runs, graph.nodes().size(), (System.nanoTime() - t0) / 1e6);
                if (backend.hostTraffic() != before) refuse(e, "it moves data between host and device (a fallback or a read-back)");
                return out;
            }
            Captured c = capture(graph, inputs, run, e);
            if (c == null) return run.run(graph, inputs, donated, null);
            e.captured = c;
            captures++;
            return replay(c, inputs);
        }
    }

    /** {@code -Djburn.cuda.graphs.verbose=true}: one line per capture or refusal on stderr. */
    private static final boolean VERBOSE = Boolean.getBoolean("jburn.cuda.graphs.verbose");

    private void refuse(Entry e, String why) {
        e.refusal = why;
        refused++;
        if (VERBOSE) System.err.println("cuda: graph not captured: " + why);
    }

    private void evict() {
        if (entries.size() <= MAX_GRAPHS) return;
        Iterator<Map.Entry<Graph, Entry>> it = entries.entrySet().iterator();
        Entry oldest = it.next().getValue();
        it.remove();
        if (oldest.captured != null) oldest.captured.close();
    }

    private Captured capture(Graph graph, List<Operand> inputs, Run run, Entry e) {
        CachingAllocator.Pool pool = new CachingAllocator.Pool();
        List<CudaBuffer> fixed = new ArrayList<>();
        List<Buffer> constants = new ArrayList<>();
        Map<Node, Buffer> byNode = new IdentityHashMap<>();
        List<Buffer> outputs = null;
        MemorySegment exec = MemorySegment.NULL;
        long t0 = System.nanoTime(), t1 = 0;
        allocator.beginPool(pool);
        try {
            List<Operand> operands = new ArrayList<>(inputs.size());
            for (Operand in : inputs) {
                CudaBuffer b = backend.newBuffer(in.buffer().byteSize(), "graph capture");
                fixed.add(b);
                operands.add(new Operand(b, in.dtype(), in.shape()));
            }
            for (Node n : graph.nodes()) {
                if (n.prim() instanceof Prim.Constant c) {
                    Buffer b = backend.uploadConstant(c);
                    constants.add(b);
                    byNode.put(n, b);
                }
            }
            long launches0 = backend.launchCount();
            device.driver.beginCapture(device.stream, "graph capture");
            backend.capturing = true;
            try {
                outputs = run.run(graph, operands, new boolean[operands.size()], byNode);
            } catch (RuntimeException ex) {
                backend.capturing = false;
                MemorySegment g = device.driver.endCapture(device.stream);
                if (!g.equals(MemorySegment.NULL)) device.driver.graphDestroy(g);
                throw ex;
            }
            backend.capturing = false;
            MemorySegment g = device.driver.endCapture(device.stream);
            if (g.equals(MemorySegment.NULL)) throw new dev.jburn.JBurnException("graph capture", "the capture was invalidated");
            long launches = backend.launchCount() - launches0;
            long copyBytes = ReplayCost.copyBytes(inputs, outputs);
            if (!COST.worthReplaying(launches, copyBytes)) {
                device.driver.graphDestroy(g);
                throw new NotWorthReplaying(ReplayCost.refusal(launches, copyBytes));
            }
            t1 = System.nanoTime();
            try {
                exec = device.driver.graphInstantiate(g, "graph capture");
            } finally {
                device.driver.graphDestroy(g);
            }
            if (VERBOSE) {
                System.err.printf("cuda: captured a graph of %d nodes, %d inputs, %d outputs: capture %.1f ms, instantiate %.1f ms, pool %.1f MiB%n",
                        graph.nodes().size(), inputs.size(), outputs.size(), (t1 - t0) / 1e6, (System.nanoTime() - t1) / 1e6, pool.bytes() / 1048576.0);
            }
            return new Captured(exec, pool, fixed, outputs, constants);
        } catch (RuntimeException ex) {
            refuse(e, ex instanceof NotWorthReplaying ? ex.getMessage() : "capture failed: " + ex.getMessage());
            fixed.forEach(Buffer::release);
            constants.forEach(Buffer::release);
            if (outputs != null) outputs.forEach(Buffer::release);
            allocator.releasePool(pool);
            return null;
        } finally {
            allocator.endPool();
        }
    }

    /** A capture that replays would not pay for: its copies cost the device more than half the host time it saves. */
    private static final class NotWorthReplaying extends RuntimeException {
        NotWorthReplaying(String why) { super(why, null, false, false); }
    }

    /** Whether {@code inputs} fill the graph's fixed input buffers exactly (they do when the caller kept to the graph's types). */
    private static boolean fits(Captured c, List<Operand> inputs) {
        if (inputs.size() != c.inputs.size()) return false;
        for (int i = 0; i < inputs.size(); i++) if (inputs.get(i).buffer().byteSize() != c.inputs.get(i).byteSize()) return false;
        return true;
    }

    private List<Buffer> replay(Captured c, List<Operand> inputs) {
        int n = inputs.size();
        long[] src = new long[n], dst = new long[n], bytes = new long[n];
        for (int i = 0; i < n; i++) {
            src[i] = CudaBackend.ptr(inputs.get(i));
            dst[i] = c.inputs.get(i).pointer();
            bytes[i] = c.inputs.get(i).byteSize();
        }
        copy(src, dst, bytes);
        device.driver.graphLaunch(c.exec, device.stream, "graph replay");
        backend.countLaunch();
        int m = c.outputs.size();
        List<Buffer> result = new ArrayList<>(m);
        long[] osrc = new long[m], odst = new long[m], obytes = new long[m];
        try {
            for (int i = 0; i < m; i++) {
                CudaBuffer from = (CudaBuffer) c.outputs.get(i);
                CudaBuffer to = backend.newBuffer(from.byteSize(), "graph replay");
                result.add(to);
                osrc[i] = from.pointer();
                odst[i] = to.pointer();
                obytes[i] = from.byteSize();
            }
        } catch (RuntimeException ex) {
            result.forEach(Buffer::release);
            throw ex;
        }
        copy(osrc, odst, obytes);
        replays++;
        return result;
    }

    /** Queues the copies {@code src[i] → dst[i]} ({@code bytes[i]} each) in launches of {@link BatchedCopy#MAX}. */
    private void copy(long[] src, long[] dst, long[] bytes) {
        for (int from = 0; from < src.length; from += BatchedCopy.MAX) {
            int to = Math.min(src.length, from + BatchedCopy.MAX);
            long largest = 0;
            for (int i = from; i < to; i++) largest = Math.max(largest, bytes[i]);
            if (largest == 0) continue;
            int per = BatchedCopy.blocksPerRange(largest);
            try (Arena a = Arena.ofConfined()) {
                KernelArgs args = new KernelArgs(a).longs(BatchedCopy.table(src, dst, bytes, from, to)).i32(to - from).i32(per);
                backend.launch(BatchedCopy.SOURCE, BatchedCopy.ENTRY, (to - from) * per, BatchedCopy.THREADS, 0, args, "graph copy");
            }
        }
    }

    /** {@code {captured, replays, refused}} so far. */
    long[] counts() {
        try (var _ = device.enter()) { return new long[] {captures, replays, refused}; }
    }

    @Override
    public void close() {
        for (Entry e : entries.values()) if (e.captured != null) e.captured.close();
        entries.clear();
    }
}
