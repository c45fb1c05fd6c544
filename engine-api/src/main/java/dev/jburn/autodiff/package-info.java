/**
 * Reverse-mode automatic differentiation ({@link dev.jburn.autodiff.Autodiff}): one backward rule per
 * graph primitive, eagerly or inside {@code Jit}, checked against finite differences by the
 * conformance kit's {@code GradientContract}, also at exact zeros, ties and bounds.
 *
 * <h2 id="conventions">Gradients at ties, kinks and zeros</h2>
 *
 * Where a function has a derivative, every rule gives it, also at exact zeros: no rule divides by
 * an input (the product of the other elements comes from exclusive prefix and suffix products, the
 * cumulative product's from a recurrence solved without division), and a discarded branch reads a
 * safe value instead of a 0 that would make it {@code 0·∞}. Where the derivative is not defined, the
 * value below is what JBurn gives; each is a generalized gradient (a limit of the gradients at nearby
 * points: along one coordinate, it lies between the one-sided derivatives at a two-way tie), and
 * {@code GradientContract.tieAndKinkConventionsAreTheDocumentedOnes} pins them.
 *
 * <table class="striped">
 * <caption>Conventions where the derivative is not defined (and what PyTorch and JAX give)</caption>
 * <thead><tr><th>op, at</th><th>JBurn</th><th>PyTorch</th><th>JAX</th></tr></thead>
 * <tbody>
 * <tr><td>{@code a.maximum(b)}, {@code a.minimum(b)} at {@code a == b}; so a hand-written relu
 *     {@code x.maximum(0.0)} at 0</td>
 *     <td>½ to each side</td><td>{@code maximum}/{@code minimum}: ½ each; {@code relu}: 0</td>
 *     <td>{@code maximum}/{@code minimum}: ½ each; {@code jax.nn.relu}: 0</td></tr>
 * <tr><td>{@code x.clip(lo, hi)} at {@code x == lo} or {@code x == hi} (it is {@code min(max(x, lo), hi)})</td>
 *     <td>½ to {@code x}, ½ to the bound</td><td>{@code clamp}: 1 to {@code x}, 0 to the bound</td>
 *     <td>{@code jnp.clip}: ½ each; {@code lax.clamp}: 0 to {@code x}</td></tr>
 * <tr><td>{@code pred.select(a, b)} where {@code pred} is a comparison at its boundary, e.g. a relu
 *     {@code x.lessEqual(0).select(0, x)} at 0</td>
 *     <td>the branch the predicate picked gets all of it: 0 for that relu at 0 (engine-nn's
 *     {@code Activation.RELU} and the other kinked activations are written so)</td>
 *     <td>same ({@code where})</td><td>same ({@code where})</td></tr>
 * <tr><td>{@code abs} at 0</td><td>0</td><td>0</td><td>1 ({@code jnp.abs}: {@code x >= 0 ? g : -g})</td></tr>
 * <tr><td>{@code max}/{@code min} reductions at tied extremes</td><td>split evenly among the tied elements</td>
 *     <td>{@code amax}/{@code amin}: split evenly; {@code max(dim)}: to the index it returns</td><td>split evenly</td></tr>
 * <tr><td>{@code cumulativeMax}/{@code cumulativeMin} at ties</td>
 *     <td>to the latest record: an element equal to the running value takes over from it</td>
 *     <td>to the index {@code cummax} returns</td><td>through its associative scan of {@code max} (½ at each tied step)</td></tr>
 * <tr><td>{@code windowMax}/{@code windowMin} (max pooling) at ties in a window; also on engines that
 *     compute it by a decomposition (it is differentiated as the primitive)</td>
 *     <td>to the <b>last</b> tied element in window order (as the kernels select)</td>
 *     <td>to the first ({@code max_pool} indices)</td><td>to the first (select-and-scatter)</td></tr>
 * <tr><td>{@code sort}, {@code topK} at ties</td><td>the sort is stable: tied elements keep their input
 *     order, and each takes its own slot's cotangent</td><td>the permutation {@code sort} returns</td>
 *     <td>the permutation of its stable sort</td></tr>
 * <tr><td>{@code sign}, {@code floor}, {@code ceil}, {@code round}</td><td>0 everywhere, at the jumps too</td><td>0</td><td>0</td></tr>
 * <tr><td>{@code remainder(a, b)} with respect to {@code b}</td><td>{@code -trunc(a / b)}, at the jumps too</td>
 *     <td>{@code fmod}: the same</td><td>{@code lax.rem}: the same</td></tr>
 * <tr><td>comparisons, {@code argmax}/{@code argmin}, {@code argsort}, integer and boolean results, {@code bitcast}</td>
 *     <td>no gradient (zero cotangents)</td><td>none</td><td>none</td></tr>
 * <tr><td>{@code a.pow(b)} with respect to {@code a} where {@code b == 0}</td><td>0 ({@code a^0 = 1}), also at
 *     {@code a == 0}</td><td>0</td><td>0</td></tr>
 * <tr><td>{@code a.pow(b)} with respect to {@code b} where {@code a == 0}</td><td>0 (also at {@code b == 0},
 *     where {@code 0^b} jumps)</td><td>0 for {@code b >= 0}</td><td>0</td></tr>
 * <tr><td>{@code LinAlg.norm} of a zero vector (p &gt; 0)</td><td>0</td><td>0</td><td>NaN</td></tr>
 * </tbody>
 * </table>
 *
 * <p>Not conventions but the true values, the same in PyTorch and JAX: {@code sqrt}, {@code cbrt},
 * {@code log}, {@code rsqrt} at 0, {@code asin}/{@code acos}/{@code atanh} at ±1 and {@code acosh} at 1
 * have an infinite derivative and give ±∞. ±∞ or NaN where the derivative does not exist at all:
 * {@code atan2} at (0, 0), {@code divide} by 0 of 0, {@code eigh} with repeated eigenvalues and the
 * singular vectors of {@code svd} with repeated or zero singular values. {@code determinant} of a
 * singular matrix has the adjugate as its gradient up to 3×3 (a closed form); larger ones go through
 * the LU rule, whose triangular solve refuses the zero pivot (PyTorch and JAX give the adjugate there
 * too), as it does for {@code invert} and {@code solve}, which have no derivative there.
 *
 * <p><b>Through a discarded branch.</b> {@code select} sends a zero cotangent to the branch it did not
 * pick, and {@code 0·∞} is NaN: {@code x.greater(0).select(x.sqrt(), 0.0)} has a NaN gradient at 0, as
 * {@code where} has in PyTorch and JAX. Select the input first, so the discarded branch sees a safe
 * value: {@code x.greater(0).select(x.greater(0).select(x, 1.0).sqrt(), 0.0)}.
 */
package dev.jburn.autodiff;
