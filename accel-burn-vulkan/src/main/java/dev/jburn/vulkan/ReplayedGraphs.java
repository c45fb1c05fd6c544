package dev.jburn.vulkan;

import dev.jburn.graph.Graph;
import dev.jburn.graph.Node;
import dev.jburn.graph.Prim;
import dev.jburn.spi.Buffer;
import dev.jburn.spi.Operand;
import dev.jburn.spi.ReplayCost;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Compiled graphs recorded once and replayed: the Vulkan twin of the cuda engine's CUDA graphs. A training step is a
 * few dozen dispatches; recorded one by one each costs the interpreter's bookkeeping, a buffer from the cache, its
 * descriptors and parameters (~20-27 µs of host time per dispatch on the H100's host, so a small model's step was
 * bound by the host). After a graph has run {@link #PROBE_RUNS} times the ordinary way without reading device data on
 * the host, its next run is recorded into a secondary command buffer ({@link CommandQueue#beginCapture}), and every
 * later run is one submission: copy the inputs in, execute the recording, copy the results out.
 *
 * <p><b>Why the copies.</b> A recording binds the buffers it was recorded with. Its inputs therefore live in fixed
 * buffers of its own (the caller's tensors are copied in), its intermediates in a {@link DeviceMemory.GraphPool} that
 * no other work may use while the recording lives, and its results are copied out to fresh buffers, because the next
 * replay overwrites them. The graph's constants are uploaded once, before the recording.
 *
 * <p><b>What is not replayed.</b> A graph whose probe runs read device data on the host (a fallback to the cpu
 * engine, a branch on a predicate, a small upload read back) or uploaded anything other than its constants: what such
 * a run does may change from call to call, and a recording would repeat the first. Such graphs keep running the
 * ordinary way, as does any graph whose recording fails. A few recordings are kept, least recently used first out.
 *
 * <p>Off with {@code -Djburn.vulkan.graphs=false} ({@link VulkanConfig#graphs()}).
 */
final class ReplayedGraphs implements AutoCloseable {
    /**
     * Ordinary runs before a recording: the first builds pipelines (and uploads what kernels cache for good), the second
     * shows the graph reads nothing back. The deciding run is one that began after an earlier run had finished: two
     * threads' first runs may overlap, and a first run's one-time uploads must not count against the other.
     */
    static final int PROBE_RUNS = 2;
    /** Recordings kept per engine. */
    static final int MAX_GRAPHS = 8;
    /**
     * When a recording pays for its copies: ~8 µs of host time saved per dispatch (the interpreter's bookkeeping, a
     * buffer, descriptors and parameters: 20-27 µs of caller CPU on the H100's host, ~10 µs on this project's 2-core
     * build machine); copies at 400 GB/s on a GPU (an H200 copies at ~3.8 TB/s read + write), 8 GB/s on a CPU device.
     */
    static final ReplayCost GPU_COST = new ReplayCost(8e-6, 400e9), CPU_COST = new ReplayCost(8e-6, 8e9);
    /** {@code -Djburn.vulkan.graphs.verbose=true}: one line per recording or refusal on stderr. */
    private static final boolean VERBOSE = Boolean.getBoolean("jburn.vulkan.graphs.verbose");

    /** Runs a (rewritten) graph the ordinary way; {@code constants} supplies its uploaded constants. */
    @FunctionalInterface
    interface Run {
        List<Buffer> run(Graph graph, List<Operand> inputs, Map<Node, Buffer> constants);
    }

    private final VulkanBackend backend;
    private final Map<Graph, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long recordings, replays, refused;

    private static final class Entry {
        final Graph rewritten;
        /** Uploads an ordinary run makes for the graph's constants (one per non-empty constant node). */
        final int constantUploads;
        /** Ordinary runs finished. */
        int finished;
        /** A deciding probe moved nothing between host and device beyond the constants: the next run records. */
        boolean clean;
        String refusal;
        Recorded recorded;

        Entry(Graph rewritten) {
            this.rewritten = rewritten;
            int n = 0;
            for (Node node : rewritten.nodes()) if (node.prim() instanceof Prim.Constant c && c.bytes().length > 0) n++;
            this.constantUploads = n;
        }

        void close(ReplayedGraphs owner) {
            if (recorded != null) recorded.close(owner);
            recorded = null;
        }
    }

    /** One recording with its fixed input buffers, its constants, its outputs (in its pool) and the pool. */
    private record Recorded(CommandQueue.Capture commands, DeviceMemory.GraphPool pool, List<DeviceBuffer> inputs,
                            Map<Node, Buffer> constants, List<Buffer> outputs) {
        void close(ReplayedGraphs owner) {
            // Replays may still be queued: they must finish before the commands and the pool's buffers go.
            owner.backend.queue.waitIdle("graph replay");
            owner.backend.queue.destroy(commands);
            owner.release(inputs, constants, outputs, pool);
        }
    }

    ReplayedGraphs(VulkanBackend backend) {
        this.backend = backend;
    }

    /**
     * Runs {@code graph} ({@code rewrite} gives the form the interpreter runs): replayed when recorded, else the
     * ordinary way (probing or recording it when due).
     */
    List<Buffer> execute(Graph graph, List<Operand> inputs, UnaryOperator<Graph> rewrite, Run run) {
        Entry e;
        boolean deciding = false; // this ordinary run decides whether the graph may be recorded
        synchronized (this) { // bookkeeping, recording and replays; ordinary runs go on outside, so threads interleave
            e = entries.get(graph);
            if (e == null) {
                e = new Entry(rewrite.apply(graph));
                entries.put(graph, e);
                evict();
            }
            if (e.recorded != null) {
                if (fits(e.recorded, inputs)) return replay(e.recorded, inputs);
            } else if (e.refusal == null) {
                if (!allDevice(inputs)) {
                    if (VERBOSE) System.err.println("vulkan: a graph run with inputs of another engine or freed: not recorded this time");
                } else if (!e.clean) {
                    deciding = e.finished >= PROBE_RUNS - 1;
                } else {
                    Recorded r = record(e, inputs, run);
                    if (r != null) {
                        e.recorded = r;
                        recordings++;
                        return replay(r, inputs);
                    }
                }
            }
        }
        long before = traffic();
        List<Buffer> out = run.run(e.rewritten, inputs, null);
        // Constants are uploaded by each ordinary run (a recording uploads them once, for good). A first run may also
        // upload what kernels cache for good (a reduction's column count): a run that began after one had finished
        // decides. Only this thread's transfers count: a data loader's thread uploads the next batch meanwhile.
        boolean moved = deciding && traffic() - before != e.constantUploads;
        synchronized (this) {
            e.finished++;
            if (deciding && e.refusal == null) {
                if (moved) refuse(e, "it moves data between host and device (a fallback, a read-back or an upload)");
                else e.clean = true;
            }
        }
        return out;
    }

    /** This thread's uploads and reads of device data so far: a graph runs on its caller's thread. */
    private static long traffic() { return DeviceMemory.threadTraffic(); }

    /** Uploads the graph's constants into {@code m} (the caller releases what is there, also after a failure). */
    private void uploadConstants(Graph g, Map<Node, Buffer> m) {
        for (Node n : g.nodes()) {
            if (n.prim() instanceof Prim.Constant c) m.put(n, backend.upload(MemorySegment.ofArray(c.bytes())));
        }
    }

    private void refuse(Entry e, String why) {
        e.refusal = why;
        refused++;
        if (VERBOSE) System.err.println("vulkan: graph not replayed: " + why);
    }

    private void evict() {
        if (entries.size() <= MAX_GRAPHS) return;
        Iterator<Map.Entry<Graph, Entry>> it = entries.entrySet().iterator();
        Entry oldest = it.next().getValue();
        it.remove();
        oldest.close(this);
    }

    private Recorded record(Entry e, List<Operand> inputs, Run run) {
        DeviceMemory memory = backend.memory;
        CommandQueue queue = backend.queue;
        List<DeviceBuffer> fixed = new ArrayList<>();
        Map<Node, Buffer> constants = new IdentityHashMap<>();
        List<Buffer> outputs = null;
        DeviceMemory.GraphPool pool = new DeviceMemory.GraphPool();
        long t0 = System.nanoTime();
        try {
            List<Operand> operands = new ArrayList<>(inputs.size());
            for (Operand in : inputs) {
                DeviceBuffer b = memory.allocateUninitialized("graph recording", in.buffer().byteSize());
                fixed.add(b);
                operands.add(new Operand(b, in.dtype(), in.shape()));
            }
            uploadConstants(e.rewritten, constants);
            CommandQueue.Capture commands = queue.beginCapture("graph recording");
            boolean keep = false;
            memory.beginPool(pool);
            try {
                outputs = run.run(e.rewritten, operands, constants);
                keep = worthReplaying(commands.dispatches(), inputs, outputs);
            } finally {
                memory.endPool();
                queue.endCapture("graph recording", commands, keep);
            }
            if (!keep) {
                refuse(e, ReplayCost.refusal(commands.dispatches(), ReplayCost.copyBytes(inputs, outputs)));
                release(fixed, constants, outputs, pool);
                return null;
            }
            if (VERBOSE) {
                System.err.printf("vulkan: recorded a graph of %d nodes, %d dispatches, %d inputs, %d outputs in %.1f ms, pool %.1f MiB%n",
                        e.rewritten.nodes().size(), commands.dispatches(), inputs.size(), outputs.size(), (System.nanoTime() - t0) / 1e6,
                        pool.bytes() / 1048576.0);
            }
            return new Recorded(commands, pool, fixed, constants, outputs);
        } catch (RuntimeException ex) {
            refuse(e, "recording failed: " + ex.getMessage());
            release(fixed, constants, outputs, pool);
            return null;
        }
    }

    /** Frees a recording's buffers and pool: one not kept (it never ran), or one closed after its replays finished. */
    private void release(List<DeviceBuffer> fixed, Map<Node, Buffer> constants, List<Buffer> outputs, DeviceMemory.GraphPool pool) {
        fixed.forEach(Buffer::release);
        constants.values().forEach(Buffer::release);
        if (outputs != null) outputs.forEach(Buffer::release);
        backend.memory.releasePool(pool);
    }

    /** Whether replaying saves more host time than its copies cost the device ({@link ReplayCost}). */
    private boolean worthReplaying(int dispatches, List<Operand> inputs, List<Buffer> outputs) {
        return (backend.dev.isCpu() ? CPU_COST : GPU_COST).worthReplaying(dispatches, ReplayCost.copyBytes(inputs, outputs));
    }

    private static boolean allDevice(List<Operand> inputs) {
        for (Operand in : inputs) if (!(in.buffer() instanceof DeviceBuffer d) || !d.isAlive()) return false;
        return true;
    }

    /** Whether {@code inputs} fill the recording's fixed input buffers exactly (they do when the caller kept to the graph's types). */
    private static boolean fits(Recorded r, List<Operand> inputs) {
        if (inputs.size() != r.inputs.size() || !allDevice(inputs)) return false;
        for (int i = 0; i < inputs.size(); i++) if (inputs.get(i).buffer().byteSize() != r.inputs.get(i).byteSize()) return false;
        return true;
    }

    private List<Buffer> replay(Recorded r, List<Operand> inputs) {
        List<DeviceBuffer> result = new ArrayList<>(r.outputs.size());
        try {
            for (Buffer out : r.outputs) result.add(backend.memory.allocateUninitialized("graph replay", out.byteSize()));
            backend.queue.submit("graph replay", rec -> {
                for (int i = 0; i < inputs.size(); i++) {
                    DeviceBuffer src = (DeviceBuffer) inputs.get(i).buffer();
                    rec.keep(src);
                    rec.copy(src.handle(), 0, r.inputs.get(i).handle(), 0, src.byteSize());
                }
                rec.execute(r.commands);
                for (int i = 0; i < result.size(); i++) {
                    DeviceBuffer to = result.get(i);
                    rec.keep(to);
                    rec.copy(((DeviceBuffer) r.outputs.get(i)).handle(), 0, to.handle(), 0, to.byteSize());
                }
            });
        } catch (RuntimeException ex) {
            result.forEach(Buffer::release);
            throw ex;
        }
        replays++;
        return new ArrayList<>(result);
    }

    /** {@code {recorded, replays, refused}} so far. */
    synchronized long[] counts() { return new long[] {recordings, replays, refused}; }

    /** Frees every recording (before the queue and the memory close). */
    @Override
    public synchronized void close() {
        for (Entry e : entries.values()) e.close(this);
        entries.clear();
    }
}
