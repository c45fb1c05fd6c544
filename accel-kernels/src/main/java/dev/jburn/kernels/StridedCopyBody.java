package dev.jburn.kernels;

/**
 * The strided copy's body, written once for the engines that run a {@link CopyPlan} (Vulkan's
 * {@code StridedCopyShader} in GLSL, Metal's {@code MslMovement} in MSL): the statements that map one
 * element of the plan's iteration space to its source element (or padding) and its destination
 * element, reading the plan's parameter words ({@link CopyPlan#params()}). It uses only what GLSL 4.50
 * and MSL share ({@code int}, {@code uint}, {@code bool}, integer {@code / %}, array indexing); each
 * engine writes the frame around it (its buffer bindings, the element count, the load and store of
 * its element type), which differs between the two APIs.
 *
 * <pre>{@code
 * String body = StridedCopyBody.locate("p", "i", "    "); // declares so, dof and pad
 * String store = "out[dof] = pad ? in1[0] : in0[so];";
 * }</pre>
 */
public final class StridedCopyBody {
    private StridedCopyBody() {}

    /**
     * Statements (each line indented by {@code indent}) that declare, for element {@code index} (a
     * {@code uint} expression) of a plan whose parameter words are the {@code int} array {@code params}:
     * {@code so}, the source element; {@code dof}, the destination element; {@code pad}, whether the
     * element is padding (then {@code so} is meaningless). Per axis {@code k}, innermost last, with
     * coordinate {@code c}: {@code t = c*mul + add}; padding when {@code t < 0}, {@code t % div != 0} or
     * {@code t/div >= srcDim}.
     */
    public static String locate(String params, String index, String indent) {
        String body = """
                int rank = P[1];
                uint rem = INDEX;
                int so = P[2];
                int dof = P[3];
                bool pad = false;
                for (int k = rank - 1; k >= 0; k--) {
                  int b = %d + k * %d;
                  uint dim = uint(P[b]);
                  int c = int(rem %% dim);
                  rem /= dim;
                  int t = c * P[b + 1] + P[b + 2];
                  int div = P[b + 3];
                  if (t < 0 || (t %% div) != 0) {
                    pad = true;
                  } else {
                    int u = t / div;
                    if (u >= P[b + 4]) pad = true; else so += u * P[b + 5];
                  }
                  dof += c * P[b + 6];
                }
                """.formatted(CopyPlan.HEADER, CopyPlan.PER_AXIS).replace("P[", params + "[").replace("INDEX", index);
        return body.lines().map(l -> indent + l + "\n").reduce("", String::concat);
    }
}
