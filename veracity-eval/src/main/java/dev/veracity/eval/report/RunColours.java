package dev.veracity.eval.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One colour per run for the report's charts and legends, each far from the others: Tableau 10 first (the colours
 * people know from their plots), then, greedily, the candidate farthest in CIELAB from every colour taken so far
 * (farthest-point sampling over a grid of colours no lighter than L* 72, which read on white). So 25 runs get 25 colours no
 * two of which are close; past {@link #DISTINCT} the list repeats.
 */
final class RunColours {

    /** Colours before the list repeats. */
    static final int DISTINCT = 40;

    /** The lightest a generated colour may be (CIELAB L*): a bar or swatch must stand out on the page's white. */
    private static final double MAX_LIGHTNESS = 72;

    private static final int[] TABLEAU_10 = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f, 0xedc948, 0xb07aa1,
            0xff9da7, 0x9c755f, 0xbab0ac};

    private static final List<Integer> PALETTE = build();

    private RunColours() {
    }

    /** The colour of the {@code index}-th run as {@code #rrggbb}. */
    static String of(int index) {
        return String.format(Locale.ROOT, "#%06x", PALETTE.get(Math.floorMod(index, PALETTE.size())));
    }

    /** The first {@code n} colours. */
    static List<String> first(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(of(i));
        }
        return out;
    }

    private static List<Integer> build() {
        List<Integer> chosen = new ArrayList<>();
        List<double[]> labs = new ArrayList<>();
        for (int c : TABLEAU_10) {
            chosen.add(c);
            labs.add(lab(c));
        }
        List<Integer> candidates = new ArrayList<>();
        for (int h = 0; h < 360; h += 6) {
            for (double s : new double[] {0.45, 0.65, 0.85}) {
                for (double l : new double[] {0.28, 0.38, 0.48, 0.58}) {
                    int c = hsl(h, s, l);
                    if (lab(c)[0] <= MAX_LIGHTNESS) {
                        candidates.add(c);
                    }
                }
            }
        }
        double[] nearest = new double[candidates.size()];
        for (int i = 0; i < candidates.size(); i++) {
            double[] c = lab(candidates.get(i));
            nearest[i] = labs.stream().mapToDouble(x -> distance(x, c)).min().orElse(Double.MAX_VALUE);
        }
        while (chosen.size() < DISTINCT) {
            int best = 0;
            for (int i = 1; i < nearest.length; i++) {
                if (nearest[i] > nearest[best]) {
                    best = i;
                }
            }
            int colour = candidates.get(best);
            chosen.add(colour);
            double[] taken = lab(colour);
            for (int i = 0; i < nearest.length; i++) {
                nearest[i] = Math.min(nearest[i], distance(lab(candidates.get(i)), taken));
            }
        }
        return List.copyOf(chosen);
    }

    /** The CIE76 colour difference (Euclidean distance in CIELAB) of two colours given as {@code 0xrrggbb}. */
    static double difference(int a, int b) {
        return distance(lab(a), lab(b));
    }

    private static double distance(double[] a, double[] b) {
        double dl = a[0] - b[0];
        double da = a[1] - b[1];
        double db = a[2] - b[2];
        return Math.sqrt(dl * dl + da * da + db * db);
    }

    private static int hsl(double h, double s, double l) {
        double c = (1 - Math.abs(2 * l - 1)) * s;
        double x = c * (1 - Math.abs(h / 60 % 2 - 1));
        double m = l - c / 2;
        double[] rgb = h < 60 ? new double[] {c, x, 0} : h < 120 ? new double[] {x, c, 0} : h < 180
                ? new double[] {0, c, x} : h < 240 ? new double[] {0, x, c} : h < 300 ? new double[] {x, 0, c}
                : new double[] {c, 0, x};
        int r = (int) Math.round((rgb[0] + m) * 255);
        int g = (int) Math.round((rgb[1] + m) * 255);
        int b = (int) Math.round((rgb[2] + m) * 255);
        return r << 16 | g << 8 | b;
    }

    /** sRGB (D65) to CIELAB. */
    static double[] lab(int rgb) {
        double r = linear((rgb >> 16 & 0xff) / 255.0);
        double g = linear((rgb >> 8 & 0xff) / 255.0);
        double b = linear((rgb & 0xff) / 255.0);
        double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
        double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
        double fx = f(x);
        double fy = f(y);
        double fz = f(z);
        return new double[] {116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)};
    }

    private static double linear(double c) {
        return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
    }

    private static double f(double t) {
        return t > 216.0 / 24389 ? Math.cbrt(t) : (24389.0 / 27 * t + 16) / 116;
    }
}
