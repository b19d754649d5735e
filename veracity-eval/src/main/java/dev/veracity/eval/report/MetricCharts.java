package dev.veracity.eval.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report's interactive metric charts: one per dataset and metric (a dataset's metrics are never put on one axis
 * with another's), one bar per run with its 95% percentile bootstrap interval as an error bar, the same colour for a
 * run on every chart of the report. The pages carry them as JSON, which {@code report.js} draws with Chart.js
 * (values and intervals on hover); the legend is the page's own HTML, so it wraps to fit however many runs there are.
 */
final class MetricCharts {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One run's bar.
     *
     * @param run    its name in the report (its folder)
     * @param method the method it ran
     * @param colour its colour ({@link RunColours})
     * @param value  the metric's mean, null when the run has none
     * @param lo     the interval's lower end, null without one
     * @param hi     its upper end
     * @param n      the questions the mean is over
     */
    record Bar(String run, String method, String colour, Double value, Double lo, Double hi, Integer n) {
    }

    /**
     * A chart: a dataset's metric across its runs.
     *
     * @param percent whether the values are shares in [0, 1], shown as percentages
     */
    record Chart(String dataset, String metric, boolean percent, List<Bar> bars) {
    }

    /** A run as the legend shows it: its method beside its name, unless the name says it already. */
    record Legend(String run, String method, String colour) {

        static Legend of(String run, String method, String colour) {
            return new Legend(run, method == null || method.equals(run) ? "" : method, colour);
        }
    }

    private MetricCharts() {
    }

    /**
     * The charts of one dataset's comparison table: a chart per metric with at least one value. {@code slugs} are the
     * table's own rows' runs in order (its subset rows, CRAG's breakdowns, are not charted), {@code colours} their
     * colours.
     */
    static List<Chart> of(String dataset, ComparisonTable.Table table, List<String> slugs, List<String> colours) {
        List<Chart> out = new ArrayList<>();
        for (String metric : table.metrics()) {
            List<Bar> bars = new ArrayList<>();
            int k = 0;
            boolean any = false;
            boolean shares = true;
            for (ComparisonTable.Row row : table.rows()) {
                if (row.subset() != null || k >= slugs.size()) {
                    continue;
                }
                ComparisonTable.Cell c = row.metrics().get(metric);
                Double v = c == null ? null : finite(c.value());
                Double lo = c == null || v == null ? null : finite(c.lo());
                Double hi = c == null || v == null ? null : finite(c.hi());
                for (Double x : new Double[] {v, lo, hi}) {
                    shares &= x == null || x >= 0 && x <= 1;
                }
                any |= v != null;
                bars.add(new Bar(slugs.get(k), row.method(), colours.get(k), v, lo, hi, c == null ? null : c.n()));
                k++;
            }
            if (any) {
                out.add(new Chart(dataset.isEmpty() ? "(unnamed)" : dataset, metric, shares, bars));
            }
        }
        return out;
    }

    /**
     * The charts and legend as the JSON a page embeds in a {@code <script type="application/json">}: '<', '>' and
     * '&' are written as JSON escapes, so no run's text can close the element or open another.
     */
    static String json(List<Chart> charts, List<Legend> legend) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("legend", legend);
        data.put("charts", charts);
        try {
            return JSON.writeValueAsString(data).replace("<", "\\u003c").replace(">", "\\u003e")
                    .replace("&", "\\u0026");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Double finite(Double v) {
        return v == null || v.isNaN() || v.isInfinite() ? null : v;
    }
}
