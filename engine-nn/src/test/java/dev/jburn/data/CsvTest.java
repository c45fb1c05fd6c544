package dev.jburn.data;

import dev.jburn.DType;
import dev.jburn.JBurnException;
import dev.jburn.Shape;
import dev.jburn.data.CsvOptions.ColumnType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** The CSV reader: options, inference, RFC 4180 quoting, and faults with line and column. */
class CsvTest {
    @TempDir Path dir;

    private Path csv(String name, String text) {
        return IdxBytes.write(dir, name, text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void headerInferredTypesLabelLast() {
        TensorDataset d = Csv.read(csv("a.csv", "a,b,label\n1,2.5,0\n3,4,1\n"), CsvOptions.defaults());
        assertEquals(Shape.of(2, 2), d.x().shape());
        assertEquals(DType.F32, d.x().dtype());
        assertArrayEquals(new float[] {1, 2.5f, 3, 4}, d.x().toFloatArray());
        assertEquals(DType.S32, d.y().dtype());
        assertArrayEquals(new int[] {0, 1}, d.y().toIntArray());
    }

    @Test
    void floatLabelsAreF32() {
        TensorDataset d = Csv.read(csv("r.csv", "x,y\n1,0.5\n2,1e3\n"), CsvOptions.defaults());
        assertEquals(DType.F32, d.y().dtype());
        assertArrayEquals(new float[] {0.5f, 1000f}, d.y().toFloatArray());
    }

    @Test
    void labelByNameOrIndexNoHeaderOtherDelimiter() {
        TensorDataset byName = Csv.read(csv("n.csv", "y;f1;f2\n7;1;2\n8;3;4\n"), CsvOptions.defaults().delimiter(';').label("y"));
        assertArrayEquals(new int[] {7, 8}, byName.y().toIntArray());
        assertArrayEquals(new float[] {1, 2, 3, 4}, byName.x().toFloatArray());
        TensorDataset byIndex = Csv.read(csv("i.tsv", "1\t9\t2\n3\t8\t4\n"), CsvOptions.defaults().header(false).delimiter('\t').label(1));
        assertArrayEquals(new int[] {9, 8}, byIndex.y().toIntArray());
        assertArrayEquals(new float[] {1, 2, 3, 4}, byIndex.x().toFloatArray());
        TensorDataset fromEnd = Csv.read(csv("e.csv", "1,9,2\n"), CsvOptions.defaults().header(false).label(-3));
        assertArrayEquals(new int[] {1}, fromEnd.y().toIntArray());
    }

    @Test
    void givenTypes() {
        Path p = csv("t.csv", "a,b\n1,2\n3,4\n");
        TensorDataset d = Csv.read(p, CsvOptions.defaults().types(ColumnType.INT, ColumnType.FLOAT));
        assertEquals(DType.F32, d.y().dtype(), "a FLOAT label column gives f32 even when its values are integers");
        JBurnException e = assertThrows(JBurnException.class,
                () -> Csv.read(csv("u.csv", "a,b\n1,2\n3.5,4\n"), CsvOptions.defaults().types(ColumnType.INT, ColumnType.INFER)));
        assertTrue(e.getMessage().contains("line 3, column 1 ('a'): '3.5' is not an integer"), e.getMessage());
        assertThrows(JBurnException.class, () -> Csv.read(p, CsvOptions.defaults().types(ColumnType.INT)));
    }

    @Test
    void quotedFieldsPerRfc4180() {
        String text = "\"a\",\"b, with comma\",\"say \"\"hi\"\"\nsecond line\"\r\n"
                + "\" 1 \",\"2\",\"3\"\r\n"
                + "4,5,\"6\"";
        TensorDataset d = Csv.read(csv("q.csv", text), CsvOptions.defaults());
        assertArrayEquals(new float[] {1, 2, 4, 5}, d.x().toFloatArray());
        assertArrayEquals(new int[] {3, 6}, d.y().toIntArray());
        JBurnException e = assertThrows(JBurnException.class,
                () -> Csv.read(csv("q2.csv", "a,\"b\nc\",d\n1,2,x\n"), CsvOptions.defaults()));
        assertTrue(e.getMessage().contains("line 3, column 3 ('d'): 'x' is not a number"), "a quoted line break counts as a line: " + e.getMessage());
    }

    @Test
    void numbersBomBlankLinesAndGzip() {
        String text = "\uFEFFa,b\n\n-1.5e2, +3 \n.5,nan\n\n-inf,0\n";
        TensorDataset d = Csv.read(csv("n.csv", text), CsvOptions.defaults().label("a"));
        assertArrayEquals(new float[] {-150f, 0.5f, Float.NEGATIVE_INFINITY}, d.y().toFloatArray());
        assertEquals(3.0f, d.x().toFloatArray()[0]);
        assertTrue(Float.isNaN(d.x().toFloatArray()[1]));
        Path gz = IdxBytes.write(dir, "z.csv.gz", IdxBytes.gzip("a,b\n1,2\n".getBytes(StandardCharsets.UTF_8)));
        assertArrayEquals(new int[] {2}, Csv.read(gz, CsvOptions.defaults()).y().toIntArray());
    }

    @Test
    void wrongFieldCountNamesTheLine() {
        assertFault(csv("w.csv", "a,b\n1,2\n3\n"), "line 3: 1 fields, expected 2");
        assertFault(csv("w2.csv", "a,b\n1,2,3\n"), "line 2: 3 fields, expected 2");
    }

    @Test
    void unparsableNumberNamesLineAndColumn() {
        assertFault(csv("p.csv", "a,b,c\n1,2,3\n4,abc,6\n"), "line 3, column 2 ('b'): 'abc' is not a number");
        assertFault(csv("p2.csv", "a,b\n1,\n"), "line 2, column 2 ('b'): an empty field");
        assertFault(csv("p3.csv", "a,b\n1,2f\n"), "'2f' is not a number");
        assertFault(csv("p4.csv", "a,b\n0x10,2\n"), "'0x10' is not a number");
    }

    @Test
    void emptyAndHeaderOnlyFiles() {
        assertFault(csv("empty.csv", ""), "empty file");
        assertFault(csv("blank.csv", "\n\n"), "empty file");
        assertFault(csv("header.csv", "a,b\n"), "a header and no data rows");
    }

    @Test
    void malformedQuoting() {
        assertFault(csv("m1.csv", "a,b\n1,\"2\n"), "line 2: the quoted field 2 is never closed");
        assertFault(csv("m2.csv", "a,b\n1,\"2\"x\n"), "line 2: text after the closing quote of field 2");
        assertFault(csv("m3.csv", "a,b\n1,2\"\n"), "line 2: a quote inside the unquoted field 2");
    }

    @Test
    void badOptionsAndEncoding() {
        assertFault(csv("l.csv", "a,b\n1,2\n"), CsvOptions.defaults().label("c"), "no column named 'c'");
        assertFault(csv("l2.csv", "a,b\n1,2\n"), CsvOptions.defaults().label(5), "label column 5 is outside the 2 columns");
        assertFault(csv("l3.csv", "a\n1\n"), CsvOptions.defaults(), "needs a label column and at least one feature column");
        assertFault(csv("l4.csv", "1,2\n"), CsvOptions.defaults().header(false).label("a"), "needs a header line");
        assertFault(csv("big.csv", "a,b\n1,99999999999\n"), CsvOptions.defaults(), "does not fit s32");
        Path bad = IdxBytes.write(dir, "bad.csv", new byte[] {'a', ',', 'b', '\n', (byte) 0xC3, (byte) 0x28, ',', '1', '\n'});
        assertFault(bad, CsvOptions.defaults(), "not valid UTF-8");
        assertThrows(JBurnException.class, () -> CsvOptions.defaults().delimiter('"'));
    }

    private static void assertFault(Path file, String expected) { assertFault(file, CsvOptions.defaults(), expected); }

    private static void assertFault(Path file, CsvOptions o, String expected) {
        JBurnException e = assertThrows(JBurnException.class, () -> Csv.read(file, o));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in: " + e.getMessage());
    }
}
