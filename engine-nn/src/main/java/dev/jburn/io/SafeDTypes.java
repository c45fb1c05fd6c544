package dev.jburn.io;

import dev.jburn.DType;

import java.util.Set;

/**
 * The safetensors names of the element types: {@code BOOL, U8, I8, U16, I16, U32, I32, U64, I64,
 * F16, BF16, F32, F64}, for JBurn's {@code PRED, U8, S8, ..., F64}. The spec's 8-, 6- and 4-bit
 * floats and {@code C64} have no JBurn type; files holding them are refused by name.
 */
final class SafeDTypes {
    private SafeDTypes() {}

    /** Names the spec defines that JBurn cannot hold. */
    static final Set<String> UNSUPPORTED = Set.of("F8_E4M3", "F8_E5M2", "F8_E8M0", "F6_E2M3", "F6_E3M2", "F4", "C64");

    /** The safetensors name of {@code t}. */
    static String name(DType t) {
        return switch (t) {
            case PRED -> "BOOL";
            case U8 -> "U8";
            case S8 -> "I8";
            case U16 -> "U16";
            case S16 -> "I16";
            case U32 -> "U32";
            case S32 -> "I32";
            case U64 -> "U64";
            case S64 -> "I64";
            case F16 -> "F16";
            case BF16 -> "BF16";
            case F32 -> "F32";
            case F64 -> "F64";
        };
    }

    /** The JBurn type of a safetensors name (case-sensitive, as the spec), or null when there is none. */
    static DType parse(String name) {
        return switch (name) {
            case "BOOL" -> DType.PRED;
            case "U8" -> DType.U8;
            case "I8" -> DType.S8;
            case "U16" -> DType.U16;
            case "I16" -> DType.S16;
            case "U32" -> DType.U32;
            case "I32" -> DType.S32;
            case "U64" -> DType.U64;
            case "I64" -> DType.S64;
            case "F16" -> DType.F16;
            case "BF16" -> DType.BF16;
            case "F32" -> DType.F32;
            case "F64" -> DType.F64;
            default -> null;
        };
    }
}
