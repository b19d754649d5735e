package dev.veracity.llm.llamacpp;

/**
 * Storage sizes of the common ggml tensor types, used only to check that a GGUF file is not truncated before
 * llama.cpp maps it. Types missing here (newer or exotic quantisations) are simply not size-checked.
 */
final class GgmlTypes {

    private GgmlTypes() {
    }

    /**
     * The bytes a tensor of {@code elements} elements (first dimension {@code rowLength}) takes, or -1 when the
     * type is not known here.
     */
    static long bytes(int type, long rowLength, long elements) {
        int[] block = block(type);
        if (block == null || rowLength % block[0] != 0) {
            return -1;
        }
        return Math.multiplyExact(elements / block[0], (long) block[1]);
    }

    /** {block size in elements, bytes per block} of a ggml type id, or null. */
    private static int[] block(int type) {
        return switch (type) {
            case 0 -> new int[] {1, 4};       // F32
            case 1, 30 -> new int[] {1, 2};   // F16, BF16
            case 2 -> new int[] {32, 18};     // Q4_0
            case 3 -> new int[] {32, 20};     // Q4_1
            case 6 -> new int[] {32, 22};     // Q5_0
            case 7 -> new int[] {32, 24};     // Q5_1
            case 8 -> new int[] {32, 34};     // Q8_0
            case 9 -> new int[] {32, 36};     // Q8_1
            case 10 -> new int[] {256, 84};   // Q2_K
            case 11 -> new int[] {256, 110};  // Q3_K
            case 12 -> new int[] {256, 144};  // Q4_K
            case 13 -> new int[] {256, 176};  // Q5_K
            case 14 -> new int[] {256, 210};  // Q6_K
            case 15 -> new int[] {256, 292};  // Q8_K
            case 24 -> new int[] {1, 1};      // I8
            case 25 -> new int[] {1, 2};      // I16
            case 26 -> new int[] {1, 4};      // I32
            case 27, 28 -> new int[] {1, 8};  // I64, F64
            default -> null;
        };
    }
}
