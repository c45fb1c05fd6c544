package dev.jburn.conformance;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.Tensor;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

import java.util.List;
import java.util.function.BinaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code select} and {@code clip}: three broadcast operands of any dtypes match the oracle, the
 * type rule ({@code merge} of the branches, of x and both bounds) and the definition; Java
 * numbers are weakly typed; clip keeps values within Java bounds; incompatible shapes fail
 * naming the op.
 */
public interface SelectContract extends EngineContract {

    /** A predicate and one branch that broadcast together, with Java numbers for the other branch. */
    record SelectNumbers(TensorPair p, long s, long s2, double d, double d2) {
        @Override public String toString() { return p + ", " + s + "L, " + s2 + "L, " + d + ", " + d2; }
    }

    /** A tensor and Java bounds {@code lo <= hi}, as integers and as halves. */
    record ClipBounds(TensorCase x, long lo, long hi, double dlo, double dhi) {
        @Override public String toString() { return "x = " + x + ", [" + lo + "L, " + hi + "L], [" + dlo + ", " + dhi + "]"; }
    }

    @Test
    @Covers("select")
    default void selectMatchesTheOracleAndTheDefinition() {
        Gen<DType> any = Generators.dtypes();
        Props.forAll(ElementwiseCases.triples(any, any, any, Elements.Mix.ALL), c -> {
            String label = "select of " + c;
            Oracle.check(engine(), label, Tolerance.EXACT, c.list(), in -> List.of(in.get(0).select(in.get(1), in.get(2))));
            Tensor p = c.a().on(engine());
            Tensor t = c.b().on(engine());
            Tensor f = c.c().on(engine());
            DType type = DType.merge(c.b().dtype(), c.c().dtype());
            Shape out = c.result("select");
            Tensor r = p.select(t, f);
            assertEquals(type, r.dtype(), () -> label + ": the branches merge to " + type.shortName());
            TensorCase onTrue = TensorCase.of(t.asType(type));
            TensorCase onFalse = TensorCase.of(f.asType(type));
            int n = (int) out.size();
            double[] dv = new double[type.isFloat() ? n : 0];
            long[] lv = new long[type.isFloat() ? 0 : n];
            for (int i = 0; i < n; i++) {
                double pv = c.a().doubleAt(ElementwiseCases.sourceIndex(c.a().shape(), out, i));
                boolean truth = pv != 0 || Double.isNaN(pv); // any non-zero, NaN included, is true
                TensorCase from = truth ? onTrue : onFalse;
                int j = ElementwiseCases.sourceIndex(from.shape(), out, i);
                if (type.isFloat()) dv[i] = from.doubleAt(j);
                else lv[i] = from.longAt(j);
            }
            TensorCase want = type.isFloat() ? TensorCase.ofDoubles(type, out, dv) : TensorCase.ofLongs(type, out, lv);
            TensorAssert.assertSame(label + ": by the definition", want, r);
            TensorAssert.assertSame(label + ": select(!p, onFalse, onTrue) differs", want, p.logicalNot().select(f, t));
        });
    }

    @Test
    @Covers("select")
    default void selectWithJavaNumbersIsWeaklyTyped() {
        Gen<SelectNumbers> cases = Generators.broadcastPairs(Generators.dtypes(), Generators.dtypes(), Elements.Mix.ALL)
                .zip(ElementwiseCases.longScalars(), ElementwiseCases.longScalars(), ElementwiseCases.doubleScalars(),
                        ElementwiseCases.doubleScalars(), SelectNumbers::new);
        Props.forAll(cases, c -> {
            TensorCase pc = c.p().a();
            TensorCase bc = c.p().b();
            DType bt = bc.dtype();
            Shape out = Shape.broadcast("test", pc.shape(), bc.shape());
            DType twoLongs = DType.mergeScalar(DType.mergeScalar(DType.S32, c.s()), c.s2());
            checkSelect(c + ": p.select(b, s)", pc, bc, DType.mergeScalar(bt, c.s()), out, (p, b) -> p.select(b, c.s()));
            checkSelect(c + ": p.select(s, b)", pc, bc, DType.mergeScalar(bt, c.s()), out, (p, b) -> p.select(c.s(), b));
            checkSelect(c + ": p.select(b, d)", pc, bc, DType.mergeScalar(bt, c.d()), out, (p, b) -> p.select(b, c.d()));
            checkSelect(c + ": p.select(d, b)", pc, bc, DType.mergeScalar(bt, c.d()), out, (p, b) -> p.select(c.d(), b));
            checkSelect(c + ": p.select(s, s2)", pc, bc, twoLongs, pc.shape(), (p, b) -> p.select(c.s(), c.s2()));
            checkSelect(c + ": p.select(d, d2)", pc, bc, DType.F32, pc.shape(), (p, b) -> p.select(c.d(), c.d2()));
            // A Java number acts as a scalar tensor of its merged type.
            Tensor p = pc.on(engine());
            Tensor b = bc.on(engine());
            DType lt = DType.mergeScalar(bt, c.s());
            TensorAssert.assertSame(c + ": p.select(b, s) vs a " + lt.shortName() + " scalar tensor",
                    TensorCase.of(p.select(b, Tensor.scalar(c.s(), lt).to(engine()))), p.select(b, c.s()));
            DType ft = DType.mergeScalar(bt, c.d());
            TensorAssert.assertSame(c + ": p.select(d, b) vs a " + ft.shortName() + " scalar tensor",
                    TensorCase.of(p.select(Tensor.scalar(c.d(), ft).to(engine()), b)), p.select(c.d(), b));
        });
    }

    @Test
    @Covers("clip")
    default void clipMatchesTheOracleAndIsMaxThenMin() {
        Gen<DType> any = Generators.dtypes();
        Props.forAll(ElementwiseCases.triples(any, any, any, Elements.Mix.ALL), c -> {
            String label = "clip of " + c;
            Oracle.check(engine(), label, Tolerance.ARITHMETIC.signSensitive(), c.list(),
                    in -> List.of(in.get(0).clip(in.get(1), in.get(2))));
            Tensor x = c.a().on(engine());
            Tensor lo = c.b().on(engine());
            Tensor hi = c.c().on(engine());
            Tensor r = x.clip(lo, hi);
            DType type = DType.merge(c.a().dtype(), c.b().dtype(), c.c().dtype());
            assertEquals(type, r.dtype(), () -> label + ": x and both bounds merge to " + type.shortName());
            assertEquals(c.result("clip"), r.shape(), label);
            TensorAssert.assertSame(label + ": differs from min(max(x, lo), hi)", TensorCase.of(x.maximum(lo).minimum(hi)), r);
        });
    }

    @Test
    @Covers("clip")
    default void clipWithJavaBoundsStaysWithinThem() {
        Gen<Long> ints = Generate.longRange(-10, 10);
        Gen<Double> halves = Generate.range(-20, 20).map(i -> i / 2.0);
        Gen<ClipBounds> cases = Generators.tensors(Generators.dtypes(), Shapes.any(), Elements.Mix.FINITE)
                .zip(ints, ints, halves, halves, (x, a, b, da, db) -> new ClipBounds(x, Math.min(a, b), Math.max(a, b), Math.min(da, db), Math.max(da, db)));
        Props.forAll(cases, c -> {
            TensorCase xc = c.x();
            Oracle.check(engine(), "clip(lo, hi) of " + c, xc, Tolerance.ARITHMETIC.signSensitive(), t -> t.clip(c.lo(), c.hi()));
            Oracle.check(engine(), "clip(dlo, dhi) of " + c, xc, Tolerance.ARITHMETIC.signSensitive(), t -> t.clip(c.dlo(), c.dhi()));
            Tensor x = xc.on(engine());
            DType longType = DType.mergeScalar(DType.mergeScalar(xc.dtype(), c.lo()), c.hi());
            DType doubleType = DType.mergeScalar(xc.dtype(), c.dlo());
            checkWithin(c + " clip(lo, hi)", xc, x.clip(c.lo(), c.hi()), longType, c.lo(), c.hi());
            checkWithin(c + " clip(dlo, dhi)", xc, x.clip(c.dlo(), c.dhi()), doubleType, c.dlo(), c.dhi());
        });
    }

    @Test
    @Covers({"select", "clip"})
    default void incompatibleShapesNameSelectAndClip() {
        Gen<List<Shape>> cases = Shapes.incompatible().zip(Generate.range(0, 2), (s, which) -> {
            Shape[] three = {Shape.scalar(), Shape.scalar(), Shape.scalar()}; // two clash, the third is a scalar
            three[which] = s.a();
            three[(which + 1) % 3] = s.b();
            return List.of(three);
        });
        Props.forAll(cases, three -> {
            Tensor a = Tensor.zeros(three.get(0), DType.F32).to(engine());
            Tensor b = Tensor.zeros(three.get(1), DType.S32).to(engine());
            Tensor c = Tensor.zeros(three.get(2), DType.U8).to(engine());
            String label = "shapes " + three;
            JBurnException se = assertThrows(JBurnException.class, () -> a.select(b, c), label);
            assertEquals("select", se.op(), label);
            assertTrue(se.reason().contains("cannot broadcast"), () -> label + ": " + se.reason());
            JBurnException ce = assertThrows(JBurnException.class, () -> a.clip(b, c), label);
            assertEquals("clip", ce.op(), label);
        });
    }

    private void checkSelect(String label, TensorCase p, TensorCase b, DType type, Shape out, BinaryOperator<Tensor> op) {
        Oracle.check(engine(), label, Tolerance.EXACT, List.of(p, b), in -> List.of(op.apply(in.get(0), in.get(1))));
        Tensor r = op.apply(p.on(engine()), b.on(engine()));
        assertEquals(type, r.dtype(), () -> label + ": weak typing gives " + type.shortName());
        assertEquals(out, r.shape(), label);
    }

    /** Every element of {@code r} lies in {@code [lo, hi]}; an element of {@code x} already there is unchanged. */
    private void checkWithin(String label, TensorCase x, Tensor r, DType type, double lo, double hi) {
        assertEquals(type, r.dtype(), () -> label + ": weak typing gives " + type.shortName());
        TensorCase got = TensorCase.of(r);
        TensorCase cast = TensorCase.of(x.on(engine()).asType(type));
        StringBuilder bad = new StringBuilder();
        for (int i = 0; i < x.size(); i++) {
            double v = got.doubleAt(i);
            double in = cast.doubleAt(i);
            boolean ok = v >= lo && v <= hi && (!(in >= lo && in <= hi) || v == in);
            if (!ok) bad.append("\n    at flat index ").append(i).append(": ").append(in).append(" became ").append(v);
        }
        if (!bad.isEmpty()) Assertions.fail(label + " on engine '" + engine().name() + "'" + bad);
    }
}
