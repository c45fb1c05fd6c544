package dev.jburn.conformance;

import dev.jburn.op.Op;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a contract's {@code @Test} method as the conformance property of the ops it names.
 * The catalog meta-test fails when an op of {@link Op#catalog()} that the reference engine
 * runs has no property in {@link ConformanceKit}.
 *
 * <pre>{@code
 * @Test @Covers("asType")
 * default void castMatchesTheOracle() { ... }
 *
 * @Test @Covers(families = UnaryOp.class)          // a property that runs every UnaryOp
 * default void unaryOpsMatchTheOracle() { ... }
 *
 * @Test @Covers("ReduceOp.max")                     // "max" alone is ambiguous: BinaryOp.max too
 * default void maxReducesLikeTheOracle() { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Covers {
    /**
     * Op names as {@link Op#opName()} gives them ({@code "asType"}, {@code "isNan"}); a name two
     * families share is written with the enum's simple name: {@code "BinaryOp.max"}.
     */
    String[] value() default {};

    /** Whole op families: every constant of these enums. */
    Class<? extends Op>[] families() default {};
}
