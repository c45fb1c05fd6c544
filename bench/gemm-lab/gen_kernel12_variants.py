# Writes src/dev/jburn/reference/Kernel12Variants.java: lab variants of GemmKernels' 12-row F32 kernel (bench/README.md,
# twenty-fourth session). Run from anywhere: python3 bench/gemm-lab/gen_kernel12_variants.py
# generates Kernel12Variants.java into the gemm lab
rows=12
def acc_decl():
    return "\n".join(f"        FloatVector c{r}_0 = FloatVector.zero(F), c{r}_1 = c{r}_0;" for r in range(rows))
def step(pexpr, suffix=""):
    out=[f"            long bi{suffix} = bo + (long) ({pexpr}) * 2 * l * Float.BYTES;",
         f"            int ai{suffix} = ao + {pexpr};",
         f"            FloatVector b0{suffix} = FloatVector.fromMemorySegment(F, b, bi{suffix}, ORDER), b1{suffix} = FloatVector.fromMemorySegment(F, b, bi{suffix} + (long) l * Float.BYTES, ORDER);"]
    for r in range(rows):
        idx = f"ai{suffix}" + ("" if r==0 else f" + {r} * AS")
        out.append(f"            {{ FloatVector x = FloatVector.broadcast(F, a[{idx}]); c{r}_0 = x.fma(b0{suffix}, c{r}_0); c{r}_1 = x.fma(b1{suffix}, c{r}_1); }}")
    return "\n".join(out)
def store_into():
    out=["        long lb = (long) l * Float.BYTES;"]
    for r in range(rows):
        out.append(f"        c{r}_0.intoMemorySegment(c, co + {r} * cRow, ORDER); c{r}_1.intoMemorySegment(c, co + {r} * cRow + lb, ORDER);")
    return "\n".join(out)
def store_tile():
    return "\n".join(f"        c{r}_0.intoArray(tile, {2*r} * l); c{r}_1.intoArray(tile, {2*r+1} * l);" for r in range(rows))
def add_into():
    out=["        long lb = (long) l * Float.BYTES;"]
    for r in range(rows):
        for h in range(2):
            o=f"co + {r} * cRow" + (" + lb" if h else "")
            out.append(f"        c{r}_{h}.add(FloatVector.fromMemorySegment(F, c, {o}, ORDER)).intoMemorySegment(c, {o}, ORDER);")
    return "\n".join(out)
def kernel(name, sig, body_end, two):
    loop = (f"""        int p = 0;
        for (; p + 1 < kc; p += 2) {{
{step("p","")}
{step("p + 1","2")}
        }}
        for (; p < kc; p++) {{
{step("p","")}
        }}""" if two else f"""        for (int p = 0; p < kc; p++) {{
{step("p","")}
        }}""")
    return f"""    static void {name}({sig}) {{
{acc_decl()}
        int l = F.length();
{loop}
{body_end}
    }}
"""
def add_loop():
    return store_tile() + """
        for (int r = 0; r < 12; r++) {
            long o = co + r * cRow;
            for (int q = 0; q < 2; q++) {
                FloatVector t = FloatVector.fromArray(F, tile, (2 * r + q) * l);
                long at = o + (long) q * l * Float.BYTES;
                t.add(FloatVector.fromMemorySegment(F, c, at, ORDER)).intoMemorySegment(c, at, ORDER);
            }
        }"""
def add_into_small():
    out=["        long lb = (long) l * Float.BYTES, o = co;"]
    for r in range(rows):
        out.append(f"        c{r}_0.add(FloatVector.fromMemorySegment(F, c, o, ORDER)).intoMemorySegment(c, o, ORDER); c{r}_1.add(FloatVector.fromMemorySegment(F, c, o + lb, ORDER)).intoMemorySegment(c, o + lb, ORDER); o += cRow;")
    return "\n".join(out)
sig_into="int kc, float[] a, int ao, MemorySegment b, long bo, MemorySegment c, long co, long cRow"
sig_tile="int kc, float[] a, int ao, MemorySegment b, long bo, float[] tile"
src=f"""package dev.jburn.reference;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/** Lab variants of GemmKernels' 12-row F32 kernels, written by bench/gemm-lab/gen_kernel12_variants.py (see bench/README.md). */
final class Kernel12Variants {{
    private Kernel12Variants() {{}}
    static final VectorSpecies<Float> F = GemmKernels.F;
    static final int AS = GemmKernels.AS;
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();

    /** Two steps per loop iteration, every accumulator's fmas still in ascending p (the bits of float12Into). */
{kernel("into2", sig_into, store_into(), True)}
    /** Two steps per iteration, into the heap tile (the bits of float12). */
{kernel("tile2", sig_tile, store_tile(), True)}
    /** One step per iteration, adding the tile into C at the end (C + chain: the bits of float12 + store). */
{kernel("addInto", sig_into, add_into(), False)}
    /** The heap tile, then a loop adding it into C, in one method. */
{kernel("addLoop", "int kc, float[] a, int ao, MemorySegment b, long bo, float[] tile, MemorySegment c, long co, long cRow", add_loop(), False)}
    /** addInto with the row address in a local (fewer bytecodes). */
{kernel("addIntoSmall", sig_into, add_into_small(), False)}
    /** Two steps, adding into C. */
{kernel("addInto2", sig_into, add_into(), True)}
}}
"""
open(__import__('os').path.join(__import__('os').path.dirname(__import__('os').path.abspath(__file__)), 'src/dev/jburn/reference/Kernel12Variants.java'), 'w').write(src)
