package dev.veracity.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * A process whose work does not fit its heap, for {@link HeapGuardTest}: with the guard installed as the CLI installs
 * it, it keeps a growing share of what it allocates (a reader holding a row per question of an ever longer input), so
 * the collector runs more and more often and frees less and less, as a command on too big an input in too small a heap.
 */
final class HeapGuardProbe {

    private HeapGuardProbe() {
    }

    public static void main(String[] args) {
        HeapGuard.install("probe");
        List<byte[]> held = new ArrayList<>();
        long garbage = 0;
        for (long i = 0; ; i++) {
            byte[] row = new byte[256];
            garbage += row.length;
            if (i % Integer.parseInt(args.length > 0 ? args[0] : "4") == 0) {
                held.add(row); // a quarter of the input's rows are kept
            }
            if (i % 1_000_000 == 0) {
                System.out.println("rows " + i + ", held " + held.size() + ", " + (garbage >> 20) + " MB allocated");
            }
        }
    }
}
