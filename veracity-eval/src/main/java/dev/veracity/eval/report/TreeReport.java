package dev.veracity.eval.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.method.RolloutTree;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The HTML report of a rollout folder ({@code trees.jsonl}, as {@code veracity rollout c3po} writes it, read through
 * {@link RolloutTree}; a line of another shape or a newer schema is refused in one line): an index of
 * the questions and one page per question that draws its tree as SVG, so a researcher sees where credit went. A node
 * shows its agent (router, filter, decision, llm) and action, its fill the credit (red 0 to green 1); leaves show
 * the answer's reward, failed ones a dashed border and the failure; the forced first level a thick border. Hovering
 * a node shows its full action. Every text is escaped; file names come from {@link HtmlReport#safeName}.
 */
public final class TreeReport {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int COLUMN = 150;
    private static final int ROW = 90;
    private static final int BOX_W = 138;
    private static final int BOX_H = 54;

    private TreeReport() {
    }

    /** Whether {@code dir} is a rollout folder rather than an eval run. */
    public static boolean isRolloutFolder(Path dir) {
        return Files.isRegularFile(dir.resolve("trees.jsonl")) && !Files.exists(dir.resolve("summary.json"));
    }

    /**
     * Writes the report of the rollout folder into {@code outDir}; returns its index.html. The trees are read one at
     * a time: each page is written as its line is read, and the index keeps a row per question.
     */
    public static Path write(Path rolloutDir, Path outDir) {
        StringBuilder rows = new StringBuilder();
        int count = 0;
        Set<String> used = new HashSet<>();
        try (BufferedReader r = Files.newBufferedReader(rolloutDir.resolve("trees.jsonl"), StandardCharsets.UTF_8)) {
            Files.createDirectories(outDir);
            int lineNo = 0;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode json;
                try {
                    json = JSON.readTree(line);
                } catch (IOException e) {
                    continue; // a torn last line of a killed rollout: the rollout drops it on resume, the report skips it
                }
                RolloutTree t = RolloutTree.fromJson(json, rolloutDir.resolve("trees.jsonl") + ":" + lineNo);
                count++;
                String name = HtmlReport.safeName(t.id());
                String file = name;
                for (int i = 2; !used.add(file); i++) {
                    file = name + "-" + i;
                }
                file += ".html";
                write(outDir.resolve(file), page("tree " + t.id()) + question(t) + "</body></html>");
                rows.append("<tr><td><a href=\"").append(esc(file)).append("\">").append(esc(text(t.question())))
                        .append("</a></td><td>").append(t.nodes().size()).append("</td><td>")
                        .append(t.leafCount()).append("</td><td>").append(t.correctLeaves())
                        .append("</td><td>").append(t.failedLeaves()).append("</td><td>")
                        .append(fmt(t.root() == null ? 0 : t.root().credit())).append("</td><td>")
                        .append(t.calls().proxy()).append(" + ").append(t.calls().llm())
                        .append("</td></tr>");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(rolloutDir + ": cannot read trees.jsonl: " + e.getMessage(), e);
        }
        StringBuilder index = new StringBuilder(page("C-3PO rollout trees: " + rolloutDir.getFileName()));
        index.append("<h1>C-3PO rollout trees</h1><p>").append(esc(rolloutDir.toAbsolutePath().normalize().toString()))
                .append(" &middot; ").append(count).append(" questions</p>")
                .append("<table><tr><th>question</th><th>nodes</th><th>leaves</th><th>correct</th><th>failed</th>"
                        + "<th>root credit</th><th>calls (proxy + LLM)</th></tr>")
                .append(rows);
        index.append("</table></body></html>");
        Path out = outDir.resolve("index.html");
        write(out, index.toString());
        return out;
    }

    private static String question(RolloutTree t) {
        StringBuilder s = new StringBuilder();
        s.append("<p><a href=\"index.html\">all questions</a></p><h1>").append(esc(text(t.question())))
                .append("</h1><p>gold: ");
        t.gold().forEach(g -> s.append(esc(text(g))).append("; "));
        s.append(" &middot; max depth ").append(t.maxDepth()).append(" &middot; ")
                .append(t.calls().proxy()).append(" proxy + ").append(t.calls().llm())
                .append(" LLM calls, ").append(t.calls().searches()).append(" searches")
                .append(t.truncated() ? " &middot; TRUNCATED by the call budget" : "")
                .append("</p>").append(svg(t));
        return s.toString();
    }

    /** The tree drawn top-down: leaves in order on a grid, each parent centred over its children. */
    static String svg(RolloutTree t) {
        Map<String, RolloutTree.Node> byId = new LinkedHashMap<>();
        Map<String, List<String>> children = new LinkedHashMap<>();
        String rootId = null;
        for (RolloutTree.Node n : t.nodes()) {
            String id = text(n.id());
            byId.put(id, n);
            children.putIfAbsent(id, new ArrayList<>());
            if (n.root()) {
                rootId = id;
            } else {
                children.computeIfAbsent(n.parent(), k -> new ArrayList<>()).add(id);
            }
        }
        if (rootId == null) {
            return "<p>(no nodes)</p>";
        }
        Map<String, Double> x = new LinkedHashMap<>();
        double[] next = {0};
        place(rootId, children, x, next);
        int maxDepth = byId.values().stream().mapToInt(RolloutTree.Node::depth).max().orElse(0);
        int width = (int) Math.max(COLUMN, next[0] * COLUMN) + 20;
        int height = (maxDepth + 1) * ROW + 20;
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" font-family=\"sans-serif\" font-size=\"11\">");
        for (Map.Entry<String, List<String>> e : children.entrySet()) {
            RolloutTree.Node p = byId.get(e.getKey());
            if (p == null) {
                continue;
            }
            for (String c : e.getValue()) {
                RolloutTree.Node cn = byId.get(c);
                s.append("<line x1=\"").append(cx(x.get(e.getKey()))).append("\" y1=\"").append(y(p) + BOX_H)
                        .append("\" x2=\"").append(cx(x.get(c))).append("\" y2=\"").append(y(cn))
                        .append("\" stroke=\"#999\"/>");
            }
        }
        for (Map.Entry<String, RolloutTree.Node> e : byId.entrySet()) {
            RolloutTree.Node n = e.getValue();
            double credit = n.credit();
            boolean leaf = children.getOrDefault(e.getKey(), List.of()).isEmpty();
            boolean failed = n.failure() != null;
            String agent = text(n.agent());
            String label = agent.equals("llm") && n.role() != null ? n.role() : agent;
            String action = n.action() == null ? "(none)" : n.action();
            int bx = (int) (x.get(e.getKey()) * COLUMN) + 10;
            int by = y(n);
            s.append("<g><title>").append(esc(e.getKey() + " " + label + " @ depth " + n.depth()
                            + ": " + action + "\ncredit " + fmt(credit) + " over " + n.leaves() + " leaves"
                            + (failed ? "\nfailure: " + n.failure() + " " + text(n.failureDetail()) : "")))
                    .append("</title><rect x=\"").append(bx).append("\" y=\"").append(by).append("\" width=\"").append(BOX_W)
                    .append("\" height=\"").append(BOX_H).append("\" rx=\"6\" fill=\"").append(color(credit))
                    .append("\" stroke=\"#333\" stroke-width=\"").append(n.onForcedLevel() ? 3 : 1).append('"')
                    .append(failed ? " stroke-dasharray=\"4 3\"" : "").append("/>");
            text(s, bx + 6, by + 15, label + " @" + n.depth(), true);
            text(s, bx + 6, by + 30, shorten(action, 24), false);
            String last = leaf ? (failed ? "failed: " + n.failure() : "reward "
                    + fmt(n.reward() == null ? 0 : n.reward())) : "credit " + fmt(credit) + " (" + n.leaves() + ")";
            text(s, bx + 6, by + 45, last, false);
            s.append("</g>");
        }
        return s.append("</svg>").toString();
    }

    /** A text field a line may lack, as "". */
    private static String text(String s) {
        return s == null ? "" : s;
    }

    /** Post-order: a leaf takes the next column, a parent the middle of its children's. */
    private static double place(String id, Map<String, List<String>> children, Map<String, Double> x, double[] next) {
        List<String> kids = children.getOrDefault(id, List.of());
        double at;
        if (kids.isEmpty()) {
            at = next[0];
            next[0] += 1;
        } else {
            double first = Double.NaN;
            double last = 0;
            for (String k : kids) {
                last = place(k, children, x, next);
                if (Double.isNaN(first)) {
                    first = last;
                }
            }
            at = (first + last) / 2;
        }
        x.put(id, at);
        return at;
    }

    private static int cx(double column) {
        return (int) (column * COLUMN) + 10 + BOX_W / 2;
    }

    private static int y(RolloutTree.Node n) {
        return n.depth() * ROW + 10;
    }

    private static void text(StringBuilder s, int x, int y, String t, boolean bold) {
        s.append("<text x=\"").append(x).append("\" y=\"").append(y).append('"').append(bold ? " font-weight=\"bold\"" : "")
                .append('>').append(esc(t)).append("</text>");
    }

    /** Red (0) through yellow to green (1), light enough for black text. */
    static String color(double credit) {
        double c = Math.max(0, Math.min(1, Double.isFinite(credit) ? credit : 0));
        int r = (int) Math.round(c < 0.5 ? 244 : 244 - (c - 0.5) * 2 * (244 - 150));
        int g = (int) Math.round(c < 0.5 ? 150 + c * 2 * (230 - 150) : 230);
        return String.format(Locale.ROOT, "#%02x%02x%02x", r, g, 150);
    }

    private static String shorten(String s, int max) {
        String one = s.replace('\n', ' ').strip();
        return one.length() <= max ? one : one.substring(0, max - 1) + "\u2026";
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.3f", d);
    }

    private static String page(String title) {
        return "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>" + esc(title) + "</title><style>"
                + "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
                + "padding:3px 8px;text-align:left}svg{border:1px solid #eee}</style></head><body>";
    }

    static String esc(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c < 0x20 && c != '\n' && c != '\t' ? ' ' : c);
            }
        }
        return out.toString();
    }

    private static void write(Path file, String html) {
        try {
            Files.writeString(file, html, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + file + ": " + e.getMessage(), e);
        }
    }
}
