package dev.veracity.eval.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/** Bar charts of a set of runs, written as PNG with XChart in headless AWT. */
final class Charts {

    static {
        System.setProperty("java.awt.headless", "true");
    }

    static final int WIDTH = 900;
    static final int HEIGHT = 420;

    private Charts() {
    }

    /**
     * Writes a grouped bar chart: one group per category, one bar per series. Values may be null (drawn as 0).
     * Returns false (and writes nothing) when there is no value at all.
     *
     * @param series series name to values, one per category
     */
    static boolean bars(Path file, String title, String yTitle, List<String> categories,
                        Map<String, List<Double>> series) {
        boolean any = series.values().stream().flatMap(List::stream).anyMatch(v -> v != null);
        if (categories.isEmpty() || series.isEmpty() || !any) {
            return false;
        }
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .xAxisTitle("").yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setPlotGridVerticalLinesVisible(false);
        chart.getStyler().setAvailableSpaceFill(0.7);
        chart.getStyler().setOverlapped(false);
        chart.getStyler().setXAxisLabelRotation(categories.size() > 6 ? 30 : 0);
        // Readable ticks: "3.3", not "3.333333333333333".
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        Map<String, Integer> used = new LinkedHashMap<>();
        for (Map.Entry<String, List<Double>> e : series.entrySet()) {
            List<Double> ys = new ArrayList<>();
            for (Double v : e.getValue()) {
                ys.add(v == null || v.isNaN() || v.isInfinite() ? 0.0 : v);
            }
            String name = unique(e.getKey(), used);
            chart.addSeries(name, new ArrayList<>(categories), ys);
        }
        try {
            Files.write(file, BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG));
        } catch (IOException e) {
            throw new UncheckedIOException("writing chart " + file + ": " + e.getMessage(), e);
        }
        return true;
    }

    private static String unique(String name, Map<String, Integer> used) {
        String base = name == null || name.isBlank() ? "series" : name;
        int k = used.merge(base, 1, Integer::sum);
        return k == 1 ? base : base + " (" + k + ")";
    }
}
