package dev.veracity.eval.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The scripts a report's pages load, copied once into its {@code assets/} folder (never inlined into each page, never
 * fetched: the report opens offline): our {@code report.js} (sortable, filterable tables; the charts' set-up) and the
 * vendored charting library, Chart.js with its error-bar plugin, each pinned at the npm version its folder names and
 * with its licence beside it (README, "The report").
 */
final class ReportAssets {

    /** The folder inside the report. */
    static final String FOLDER = "assets";

    private static final String VENDOR = "vendor/";

    /** Resource (under the report's resources) and the name it gets in {@link #FOLDER}. */
    private record Asset(String resource, String name) {
    }

    private static final List<Asset> ASSETS = List.of(
            new Asset("report.js", "report.js"),
            new Asset(VENDOR + "chart.js-4.6.1/chart.umd.min.js", "chart.umd.min.js"),
            new Asset(VENDOR + "chart.js-4.6.1/LICENSE.md", "chart.js-LICENSE.md"),
            new Asset(VENDOR + "chartjs-chart-error-bars-4.4.5/index.umd.min.js", "chartjs-chart-error-bars.umd.min.js"),
            new Asset(VENDOR + "chartjs-chart-error-bars-4.4.5/LICENSE", "chartjs-chart-error-bars-LICENSE"));

    /** The script names in the order a page loads them. */
    static final List<String> SCRIPTS = List.of("chart.umd.min.js", "chartjs-chart-error-bars.umd.min.js", "report.js");

    private ReportAssets() {
    }

    /** Copies the assets into {@code outDir/assets}. */
    static void copy(Path outDir, String resources) {
        Path dir = outDir.resolve(FOLDER);
        try {
            Files.createDirectories(dir);
            for (Asset a : ASSETS) {
                try (InputStream in = ReportAssets.class.getResourceAsStream(resources + a.resource())) {
                    if (in == null) {
                        throw new IllegalStateException("missing resource " + resources + a.resource());
                    }
                    Files.copy(in, dir.resolve(a.name()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The {@code <script>} tags of a page {@code depth} folders below the report's root. */
    static String scriptTags(int depth) {
        String up = "../".repeat(depth);
        StringBuilder sb = new StringBuilder();
        for (String s : SCRIPTS) {
            sb.append("<script src=\"").append(up).append(FOLDER).append('/').append(s).append("\"></script>\n");
        }
        return sb.toString();
    }
}
