package dev.veracity.methods.madam.baseline;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * k-means over L2-normalised vectors (squared Euclidean distance, so cosine), k-means++ seeding from a fixed seed:
 * the same vectors and seed always give the same clusters. Speculative RAG clusters retrieved documents by their
 * embeddings with k-means (Wang et al., 2025, Section 3.2).
 */
final class KMeans {

    private KMeans() {
    }

    /** The cluster of each vector, 0..k-1 (k capped at the number of vectors); no cluster is left empty. */
    static int[] cluster(List<float[]> vectors, int k, long seed) {
        int n = vectors.size();
        int kk = Math.max(1, Math.min(k, n));
        int[] assign = new int[n];
        if (n == 0) {
            return assign;
        }
        Random random = new Random(seed);
        List<double[]> centers = new ArrayList<>();
        centers.add(toDouble(vectors.get(random.nextInt(n))));
        while (centers.size() < kk) {
            double[] d = new double[n];
            double total = 0;
            for (int i = 0; i < n; i++) {
                d[i] = nearest(vectors.get(i), centers)[1];
                total += d[i];
            }
            int pick = -1;
            if (total > 0) {
                double r = random.nextDouble() * total;
                for (int i = 0; i < n && pick < 0; i++) {
                    r -= d[i];
                    if (r <= 0 && d[i] > 0) {
                        pick = i;
                    }
                }
            }
            if (pick < 0) { // all points coincide with centres: take the first not yet chosen
                pick = centers.size();
            }
            centers.add(toDouble(vectors.get(pick)));
        }
        Arrays.fill(assign, -1);
        for (int iter = 0; iter < 100; iter++) {
            boolean changed = false;
            for (int i = 0; i < n; i++) {
                int c = (int) nearest(vectors.get(i), centers)[0];
                if (c != assign[i]) {
                    assign[i] = c;
                    changed = true;
                }
            }
            fillEmpty(vectors, centers, assign);
            if (!changed && iter > 0) {
                break;
            }
            int dim = vectors.getFirst().length;
            for (int c = 0; c < kk; c++) {
                double[] sum = new double[dim];
                int count = 0;
                for (int i = 0; i < n; i++) {
                    if (assign[i] == c) {
                        for (int j = 0; j < dim; j++) {
                            sum[j] += vectors.get(i)[j];
                        }
                        count++;
                    }
                }
                if (count > 0) {
                    for (int j = 0; j < dim; j++) {
                        sum[j] /= count;
                    }
                    centers.set(c, sum);
                }
            }
        }
        return assign;
    }

    /** Moves the point farthest from its centre into any empty cluster. */
    private static void fillEmpty(List<float[]> vectors, List<double[]> centers, int[] assign) {
        for (int c = 0; c < centers.size(); c++) {
            final int cc = c;
            if (Arrays.stream(assign).noneMatch(a -> a == cc)) {
                int far = -1;
                double best = -1;
                for (int i = 0; i < assign.length; i++) {
                    int owner = assign[i];
                    long size = Arrays.stream(assign).filter(a -> a == owner).count();
                    double d = dist(vectors.get(i), centers.get(owner));
                    if (size > 1 && d > best) {
                        best = d;
                        far = i;
                    }
                }
                if (far >= 0) {
                    assign[far] = c;
                }
            }
        }
    }

    private static double[] nearest(float[] v, List<double[]> centers) {
        int best = 0;
        double bestD = Double.MAX_VALUE;
        for (int c = 0; c < centers.size(); c++) {
            double d = dist(v, centers.get(c));
            if (d < bestD) {
                bestD = d;
                best = c;
            }
        }
        return new double[] {best, bestD};
    }

    private static double dist(float[] v, double[] c) {
        double s = 0;
        for (int j = 0; j < v.length; j++) {
            double d = v[j] - c[j];
            s += d * d;
        }
        return s;
    }

    private static double[] toDouble(float[] v) {
        double[] d = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            d[i] = v[i];
        }
        return d;
    }
}
