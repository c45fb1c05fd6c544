package dev.jburn.kernels;

import dev.jburn.DType;

import java.util.List;

/**
 * Generated kernel source. Binding order: {@code inputTypes} (0..n-1), then the output (n). The
 * kernel takes the element count {@code n} (CUDA: a trailing {@code unsigned long long} argument;
 * GLSL: a {@code uint} push constant at offset 0) and covers {@code i < n}: launch at least
 * {@code n} threads in CUDA (it loops on a grid stride), or {@code ceil(n / 256)} workgroups in
 * GLSL (x first, then y).
 *
 * @param entry      the entry point ({@code main} for GLSL, the kernel name for CUDA)
 * @param code       the whole compilable source
 * @param inputTypes the input buffers' dtypes
 * @param outType    the output buffer's dtype
 */
public record KernelSource(String entry, String code, List<DType> inputTypes, DType outType) {
    public KernelSource {
        inputTypes = List.copyOf(inputTypes);
    }
}
