package com.example.hello;

import dev.jburn.Tensor;
import dev.jburn.autodiff.Autodiff;

/** A first JBurn program: a few tensor ops on the default engine (cpu, or -Djburn.engine=NAME). */
public final class Hello {
    public static void main(String[] args) {
        Tensor a = Tensor.of(new float[][] {{1, 2, 3}, {4, 5, 6}});
        System.out.println("a.dot(a.transpose()) = " + a.dot(a.transpose()));
        System.out.println("a.sum(new int[] {1}) = " + a.sum(new int[] {1}));
        System.out.println("grad of sum(x * x) = " + Autodiff.grad(x -> x.multiply(x).sum()).apply(a));
    }
}
