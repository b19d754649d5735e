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
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/** Bar and scatter charts of a set of runs, written as PNG with XChart in headless AWT. */
public final class Charts {

    static {
        System.setProperty("java.awt.headless", "true");
    }

    static final int WIDTH = 900;
    static final int HEIGHT = 420;

    private Charts() {
    }

    /**
     * Writes a grouped bar chart: one group per category, one bar per series. Values may be null (no data; drawn
     * as 0 beside bars that have data). Series and categories without any value are left out, and when nothing is
     * left, or every value left is 0, there is nothing to draw: returns false and writes nothing (no empty axes).
     *
     * @param series series name to values, one per category
     */
    public static boolean bars(Path file, String title, String yTitle, List<String> categories,
                        Map<String, List<Double>> series) {
        List<Integer> keep = new ArrayList<>();
        for (int c = 0; c < categories.size(); c++) {
            int k = c;
            if (series.values().stream().anyMatch(vs -> k < vs.size() && present(vs.get(k)))) {
                keep.add(c);
            }
        }
        Map<String, List<Double>> kept = new LinkedHashMap<>();
        series.forEach((name, vs) -> {
            List<Double> ys = new ArrayList<>();
            keep.forEach(c -> ys.add(c < vs.size() ? vs.get(c) : null));
            if (ys.stream().anyMatch(Charts::present)) {
                kept.put(name, ys);
            }
        });
        boolean nonZero = kept.values().stream().flatMap(List::stream).anyMatch(v -> present(v) && v != 0);
        if (keep.isEmpty() || kept.isEmpty() || !nonZero) {
            return false;
        }
        categories = keep.stream().map(categories::get).toList();
        series = kept;
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

    /**
     * Writes a scatter chart with one labelled point per run (C-3PO's figure 3: performance against cost). Points
     * without both coordinates are left out; with none left there is nothing to draw: returns false and writes
     * nothing.
     *
     * @param points run name to its {x, y}
     */
    public static boolean scatter(Path file, String title, String xTitle, String yTitle, Map<String, double[]> points) {
        Map<String, double[]> kept = new LinkedHashMap<>();
        points.forEach((name, xy) -> {
            if (xy != null && xy.length == 2 && Double.isFinite(xy[0]) && Double.isFinite(xy[1])) {
                kept.put(name, xy);
            }
        });
        if (kept.isEmpty()) {
            return false;
        }
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setMarkerSize(12);
        chart.getStyler().setXAxisDecimalPattern("#,##0.##");
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        Map<String, Integer> used = new LinkedHashMap<>();
        kept.forEach((name, xy) -> chart.addSeries(unique(name, used), new double[] {xy[0]}, new double[] {xy[1]}));
        try {
            Files.write(file, BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG));
        } catch (IOException e) {
            throw new UncheckedIOException("writing chart " + file + ": " + e.getMessage(), e);
        }
        return true;
    }

    private static boolean present(Double v) {
        return v != null && !v.isNaN() && !v.isInfinite();
    }

    private static String unique(String name, Map<String, Integer> used) {
        String base = name == null || name.isBlank() ? "series" : name;
        int k = used.merge(base, 1, Integer::sum);
        return k == 1 ? base : base + " (" + k + ")";
    }
}
