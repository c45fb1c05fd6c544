package dev.jburn.graph;

import dev.jburn.DType;
import dev.jburn.Shape;
import dev.jburn.op.BinaryOp;
import dev.jburn.op.ReduceOp;
import dev.jburn.op.UnaryOp;
import dev.jburn.spi.Capabilities;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fused structure {@link FusionPass} builds, on graphs made by hand (no engine runs them). */
class FusionPassTest {
    private static final Shape A = Shape.of(4, 3), B = Shape.of(5);

    /**
     * Inputs {@code x: f32[4,3]}, {@code y: f32[5]}, {@code t: f32[]}; the scalar {@code c = 1 - pow(0.9, t)} is read
     * by two chains, {@code exp(x / c)} and {@code y * c + y}; with {@code cAlsoOut} c is an output too.
     */
    private static Graph adamLike(boolean cAlsoOut) {
        Graph.Builder b = Graph.builder();
        Value x = b.input(DType.F32, A), y = b.input(DType.F32, B), t = b.input(DType.F32, Shape.scalar());
        Value beta = scalar(b, 0.9f), one = scalar(b, 1f);
        Value p = b.add1(new Prim.Binary(BinaryOp.POW, Shape.scalar(), DType.F32), beta, t);
        Value n = b.add1(new Prim.Unary(UnaryOp.NEGATE, DType.F32), p);
        Value c = b.add1(new Prim.Binary(BinaryOp.ADD, Shape.scalar(), DType.F32), n, one);
        Value a1 = b.add1(new Prim.Binary(BinaryOp.DIVIDE, A, DType.F32), x, c);
        Value a2 = b.add1(new Prim.Unary(UnaryOp.EXP, DType.F32), a1);
        Value b1 = b.add1(new Prim.Binary(BinaryOp.MULTIPLY, B, DType.F32), y, c);
        Value b2 = b.add1(new Prim.Binary(BinaryOp.ADD, B, DType.F32), b1, y);
        return b.build(cAlsoOut ? List.of(a2, b2, c) : List.of(a2, b2));
    }

    private static Value scalar(Graph.Builder b, float v) {
        return b.constant(ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putFloat(v).array(), DType.F32, Shape.scalar());
    }

    private static Graph fuse(Graph g, Capabilities natives, List<String> report) {
        Graph out = new FusionPass(natives).run(g, report::add);
        assertNull(Verifier.firstProblem(out), out::toString);
        return out;
    }

    private static List<String> names(Graph g) { return g.nodes().stream().map(n -> n.prim().name()).toList(); }

    private static Graph body(Node n) { return ((Prim.Fused) n.prim()).body(); }

    @Test
    void aScalarChainReadBySeveralGroupsIsRecomputedInEachAndVanishes() {
        List<String> report = new ArrayList<>();
        Graph g = fuse(adamLike(false), Capabilities.everything(), report);
        assertEquals(List.of("fused", "fused"), names(g), g.toString());
        for (Node n : g.nodes()) {
            List<String> ops = names(body(n));
            assertEquals(1, ops.stream().filter("pow"::equals).count(), "each group computes c itself: " + ops);
            assertTrue(ops.containsAll(List.of("negate", "add", "constant")), ops.toString());
            assertEquals(List.of(0, 1), n.inputs().stream().map(v -> v.shape().rank() == 0 ? 0 : 1).distinct().sorted().toList(),
                    "reads a full-size input and t: " + n);
        }
        assertTrue(report.getFirst().matches("fused 2 nodes into %\\d+: multiply add"), report.toString());
        assertTrue(report.stream().anyMatch(l -> l.matches("  recomputes 3 scalar nodes inside: %\\d+=pow %\\d+=negate %\\d+=add")), report.toString());
    }

    @Test
    void aScalarThatIsAlsoAnOutputIsComputedOnceAndRead() {
        Graph g = fuse(adamLike(true), Capabilities.everything(), new ArrayList<>());
        assertEquals(List.of("fused", "fused", "fused"), names(g), g.toString());
        Node scalar = g.nodes().stream().filter(n -> n.output().shape().rank() == 0).findFirst().orElseThrow();
        assertEquals(List.of("constant", "constant", "pow", "negate", "add"), names(body(scalar)));
        for (Node n : g.nodes()) {
            if (n == scalar) continue;
            assertTrue(n.inputs().contains(scalar.output()), "reads c: " + n);
            assertTrue(!names(body(n)).contains("pow"), "does not recompute c: " + body(n));
        }
    }

    @Test
    void anOpTheEngineLacksIsNotCopied() {
        Capabilities noPow = (op, dtype) -> op != BinaryOp.POW;
        Graph g = fuse(adamLike(false), noPow, new ArrayList<>());
        // pow runs once on its own (a lone node: only constants would join it); negate and add are still copied
        assertEquals(List.of("constant", "pow", "fused", "fused"), names(g), g.toString());
        for (Node n : g.nodes().subList(2, 4)) {
            assertTrue(names(body(n)).containsAll(List.of("negate", "add")) && !names(body(n)).contains("pow"), body(n).toString());
        }
    }

    @Test
    void withoutRematerializationTheScalarChainIsAGroupOfItsOwn() {
        Graph g = fuse(adamLike(false), null, new ArrayList<>());
        assertEquals(List.of("fused", "fused", "fused"), names(g), g.toString());
        assertEquals(List.of("constant", "constant", "pow", "negate", "add"), names(body(g.nodes().getFirst())));
    }

    @Test
    void aLongScalarChainIsCutAtTheBound() {
        Graph.Builder b = Graph.builder();
        Value x = b.input(DType.F32, A), t = b.input(DType.F32, Shape.scalar());
        Value s = t;
        List<Value> chain = new ArrayList<>();
        for (int i = 0; i < GroupCopies.MAX_NODES + 3; i++) {
            s = b.add1(new Prim.Unary(i % 2 == 0 ? UnaryOp.EXP : UnaryOp.NEGATE, DType.F32), s);
            chain.add(s);
        }
        Value y1 = b.add1(new Prim.Binary(BinaryOp.MULTIPLY, A, DType.F32), x, s);
        Value y2 = b.add1(new Prim.Binary(BinaryOp.ADD, A, DType.F32), x, s);
        Graph g = fuse(b.build(List.of(y1, y2)), Capabilities.everything(), new ArrayList<>());
        // the first MAX_NODES + 1 nodes of the chain run once, as one rank-0 group; each reader recomputes the 2 after them
        assertEquals(3, g.nodes().size(), g.toString());
        assertEquals(0, g.nodes().getFirst().output().shape().rank());
        assertEquals(GroupCopies.MAX_NODES + 1, body(g.nodes().getFirst()).nodes().size(), g.toString());
        for (Node n : g.nodes().subList(1, 3)) assertEquals(3, body(n).nodes().size(), body(n).toString());
    }

    /** How {@link #batchNormLike} varies: as batch norm, or one of the cases where {@code d} stays stored. */
    private enum Centre { BATCH_NORM, TWO_FULL_INPUTS, READ_BY_DOT, ALSO_OUTPUT, X_FOR_IT_ALONE, ONE_READER }

    /**
     * Batch norm's centring, {@code d = x - mean} ({@code x, g: f32[4,3]}, {@code mean: f32[1,3]}), read by the
     * variance's {@code sum(d·d, 0)} and the backward's {@code sum(g·d, 0)}; {@code variant} changes one thing.
     */
    private static Graph batchNormLike(Centre variant) {
        Graph.Builder b = Graph.builder();
        Value x = b.input(DType.F32, A), g = b.input(DType.F32, A);
        if (variant == Centre.X_FOR_IT_ALONE) x = b.add1(new Prim.Unary(UnaryOp.NEGATE, DType.F32), x); // d its only reader
        Value mean = b.input(DType.F32, variant == Centre.TWO_FULL_INPUTS ? A : Shape.of(1, 3));
        Value d = b.add1(new Prim.Binary(BinaryOp.SUBTRACT, A, DType.F32), x, mean);
        Value sq = b.add1(new Prim.Binary(BinaryOp.MULTIPLY, A, DType.F32), d, d);
        Value v = b.add1(new Prim.Reduce(ReduceOp.SUM, new int[] {0}, DType.F32), sq);
        if (variant == Centre.ONE_READER) return b.build(List.of(v));
        Value h = variant == Centre.READ_BY_DOT
                ? b.add1(new Prim.Dot(new int[] {0}, new int[0], new int[] {0}, new int[0], DType.F32), d, g)
                : b.add1(new Prim.Reduce(ReduceOp.SUM, new int[] {0}, DType.F32),
                        b.add1(new Prim.Binary(BinaryOp.MULTIPLY, A, DType.F32), g, d));
        return b.build(variant == Centre.ALSO_OUTPUT ? List.of(v, h, d) : List.of(v, h));
    }

    /** {@link #fuse} with sums over leading axes as roots (batch norm's sums over all but the channels). */
    private static Graph fuseWithLeadingSums(Graph g, List<String> report) {
        Graph out = new FusionPass(Capabilities.everything(), true).run(g, report::add);
        assertNull(Verifier.firstProblem(out), out::toString);
        return out;
    }

    @Test
    void aCentreReadByTwoSumsIsRecomputedInBothGroupsAndVanishes() {
        List<String> report = new ArrayList<>();
        Graph g = fuseWithLeadingSums(batchNormLike(Centre.BATCH_NORM), report);
        assertEquals(List.of("fused", "fused"), names(g), g.toString());
        for (Node n : g.nodes()) {
            List<String> ops = names(body(n));
            assertEquals(List.of("subtract", "multiply", "sum"), ops, body(n).toString());
            assertTrue(n.inputs().contains(g.inputs().get(0)) && n.inputs().contains(g.inputs().get(2)), "reads x and mean: " + n);
        }
        assertTrue(report.stream().anyMatch(l -> l.matches("recomputes %\\d+ = subtract f32\\[4,3\\] in 2 groups instead of storing it")),
                report.toString());
        // without rematerialization d is stored, as before
        Graph stored = new FusionPass(null, true).run(batchNormLike(Centre.BATCH_NORM), s -> {});
        assertEquals(List.of("subtract", "fused", "fused"), names(stored), stored.toString());
    }

    @Test
    void aCentreThatSavesNoBytesOrIsNeededAnywayIsStored() {
        for (Centre c : List.of(Centre.TWO_FULL_INPUTS, Centre.READ_BY_DOT, Centre.ALSO_OUTPUT, Centre.X_FOR_IT_ALONE)) {
            List<String> report = new ArrayList<>();
            Graph g = fuseWithLeadingSums(batchNormLike(c), report);
            // d is computed by one node: itself, or the group it ends (negate, subtract)
            assertEquals(1, g.nodes().stream().filter(n -> n.prim().name().equals("subtract")
                    || n.prim() instanceof Prim.Fused && names(body(n)).contains("subtract")).count(), c + ": " + g);
            assertTrue(report.stream().noneMatch(l -> l.startsWith("recomputes")), c + ": " + report);
            assertTrue(report.stream().anyMatch(l -> l.contains("= subtract: its result has")), c + ": " + report);
        }
        // a pred mask of f32 values read by two selects: copies would read 8 bytes an element, storing it costs 3
        Graph.Builder b = Graph.builder();
        Value x = b.input(DType.F32, A), y = b.input(DType.F32, A);
        Value mask = b.add1(new Prim.Binary(BinaryOp.LESS_EQUAL, A, DType.PRED), x, scalar(b, 0f));
        Value s1 = b.add1(new Prim.Select(A), mask, x, y), s2 = b.add1(new Prim.Select(A), mask, y, x);
        Graph masked = fuse(b.build(List.of(s1, s2)), Capabilities.everything(), new ArrayList<>());
        assertEquals(List.of("constant", "lessEqual", "select", "select"), names(masked), masked.toString());
        // one reader: d joins that reader's chain as a member, as before
        List<String> report = new ArrayList<>();
        Graph g = fuseWithLeadingSums(batchNormLike(Centre.ONE_READER), report);
        assertEquals(List.of("fused"), names(g), g.toString());
        assertTrue(report.getFirst().matches("fused 3 nodes into %\\d+: subtract multiply sum"), report.toString());
        assertTrue(report.stream().noneMatch(l -> l.startsWith("recomputes")), report.toString());
    }
}
