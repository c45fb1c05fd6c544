package dev.jburn.metal;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BOOLEAN;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Every Objective-C message the bridge sends, with its exact C signature: {@code objc_msgSend} is
 * bound once per signature, never through a variadic descriptor (arm64 passes variadic arguments on
 * the stack, fixed ones in registers: a variadic binding would pass garbage). The one place a
 * selector's name and its argument layout are written down.
 */
enum Sel {
    // NSObject
    ALLOC("alloc", ADDRESS),
    INIT("init", ADDRESS),
    RELEASE("release", null),
    // NSString, NSError
    STRING_WITH_UTF8("stringWithUTF8String:", ADDRESS, ADDRESS),
    UTF8_STRING("UTF8String", ADDRESS),
    LOCALIZED_DESCRIPTION("localizedDescription", ADDRESS),
    // MTLDevice
    NAME("name", ADDRESS),
    NEW_COMMAND_QUEUE("newCommandQueue", ADDRESS),
    NEW_BUFFER("newBufferWithLength:options:", ADDRESS, JAVA_LONG, JAVA_LONG),
    NEW_LIBRARY("newLibraryWithSource:options:error:", ADDRESS, ADDRESS, ADDRESS, ADDRESS),
    NEW_PIPELINE("newComputePipelineStateWithFunction:error:", ADDRESS, ADDRESS, ADDRESS),
    SUPPORTS_FAMILY("supportsFamily:", JAVA_BOOLEAN, JAVA_LONG),
    // MTLCompileOptions, MTLLibrary, MTLComputePipelineState, MTLBuffer
    SET_FAST_MATH("setFastMathEnabled:", null, JAVA_BOOLEAN),
    NEW_FUNCTION("newFunctionWithName:", ADDRESS, ADDRESS),
    MAX_THREADS("maxTotalThreadsPerThreadgroup", JAVA_LONG),
    CONTENTS("contents", ADDRESS),
    // Command submission
    COMMAND_BUFFER("commandBuffer", ADDRESS),
    COMPUTE_ENCODER("computeCommandEncoder", ADDRESS),
    SET_PIPELINE("setComputePipelineState:", null, ADDRESS),
    SET_BUFFER("setBuffer:offset:atIndex:", null, ADDRESS, JAVA_LONG, JAVA_LONG),
    SET_BYTES("setBytes:length:atIndex:", null, ADDRESS, JAVA_LONG, JAVA_LONG),
    DISPATCH_GROUPS("dispatchThreadgroups:threadsPerThreadgroup:", null, Objc.MTL_SIZE, Objc.MTL_SIZE),
    END_ENCODING("endEncoding", null),
    COMMIT("commit", null),
    WAIT("waitUntilCompleted", null),
    STATUS("status", JAVA_LONG),
    ERROR("error", ADDRESS),
    // MetalPerformanceShaders: GEMM
    MATRIX_DESCRIPTOR("matrixDescriptorWithRows:columns:rowBytes:dataType:", ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT),
    INIT_MATRIX("initWithBuffer:descriptor:", ADDRESS, ADDRESS, ADDRESS),
    INIT_MATMUL("initWithDevice:transposeLeft:transposeRight:resultRows:resultColumns:interiorColumns:alpha:beta:", ADDRESS,
            ADDRESS, JAVA_BOOLEAN, JAVA_BOOLEAN, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_DOUBLE, JAVA_DOUBLE),
    ENCODE_MATMUL("encodeToCommandBuffer:leftMatrix:rightMatrix:resultMatrix:", null, ADDRESS, ADDRESS, ADDRESS, ADDRESS);

    /** The selector's name, as {@code sel_registerName} takes it. */
    final String selector;
    /** {@code objc_msgSend}'s C signature for it: receiver and selector, then the arguments. */
    final FunctionDescriptor descriptor;

    Sel(String selector, MemoryLayout result, MemoryLayout... args) {
        this.selector = selector;
        MemoryLayout[] all = new MemoryLayout[args.length + 2];
        all[0] = ADDRESS;
        all[1] = ADDRESS;
        System.arraycopy(args, 0, all, 2, args.length);
        this.descriptor = result == null ? FunctionDescriptor.ofVoid(all) : FunctionDescriptor.of(result, all);
    }
}
