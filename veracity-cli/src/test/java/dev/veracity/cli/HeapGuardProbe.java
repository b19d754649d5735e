package dev.veracity.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A process whose work does not fit its heap, for {@link HeapGuardTest}, with the guard installed as the CLI installs
 * it. {@code grow K}: it keeps one in K of the rows it allocates (a reader holding a row per question of an ever longer
 * input) until the heap runs out. {@code churn PERCENT}: it holds rows filling that share of the heap and keeps
 * replacing them at random, so every full collection frees a little and the collector runs nearly all the time without
 * the heap ever running out: the minutes of collecting the guard exists to cut short.
 */
final class HeapGuardProbe {

    private static final int ROW = 256;

    private HeapGuardProbe() {
    }

    public static void main(String[] args) {
        HeapGuard.install("probe");
        if (args[0].equals("churn")) {
            int rows = (int) (Runtime.getRuntime().maxMemory() * Integer.parseInt(args[1]) / 100 / (ROW + 16));
            byte[][] held = new byte[rows][];
            for (int i = 0; i < rows; i++) {
                held[i] = new byte[ROW];
            }
            SplittableRandom random = new SplittableRandom(1);
            for (long i = 0; ; i++) {
                held[random.nextInt(rows)] = new byte[ROW];
            }
        }
        int keep = Integer.parseInt(args[1]);
        List<byte[]> held = new ArrayList<>();
        for (long i = 0; ; i++) {
            byte[] row = new byte[ROW];
            if (i % keep == 0) {
                held.add(row);
            }
        }
    }
}
