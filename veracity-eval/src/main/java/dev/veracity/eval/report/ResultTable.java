package dev.veracity.eval.report;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.metrics.Metric;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The answered questions of a run as a compact table, one row per question in {@code results.jsonl} order: the id,
 * the line it was read from, each metric's per-question score, the per-question figures (calls, tokens,
 * milliseconds), parse failures, the error flag, the judge's outcome and the text fields subsets select on. No JSON
 * tree of a line is kept: a row costs about a hundred bytes, so 100,000 questions take a few megabytes. What else a
 * consumer needs of a line it reads again from the file ({@link RunDir#forEachResult}).
 */
final class ResultTable {

    /** The per-question figures kept, as result lines name them. */
    static final List<String> FIGURES = List.of("calls", "samples", "prompt_tokens", "completion_tokens",
            "cached_samples", "wall_ms", "critical_path_ms", "model_ms");

    /** The text fields kept for subsets: CRAG's question type. */
    static final List<String> LABELS = List.of("question_type");

    /** A label field of a line ({@link #LABELS}), or null when it has none. */
    static String label(ResultLine line, String name) {
        return switch (name) {
            case "question_type" -> line.questionType();
            default -> throw new IllegalArgumentException("a result line has no label '" + name + "'");
        };
    }

    /** Judge outcomes of a row: no judge on the line, a verdict either way, or one that did not parse. */
    static final byte NOT_JUDGED = 0;
    static final byte CORRECT = 1;
    static final byte INCORRECT = 2;
    static final byte UNPARSED = 3;

    private final int size;
    private final String[] ids;
    private final int[] lines;
    /** Each row's place in the dataset's order ({@link ResultLine#position}), or -1 when its line has none. */
    private final int[] positions;
    private final int[] parseFailures;
    private final BitSet errors;
    private final byte[] judge;
    private final Map<String, NumberColumn> figures;
    private final Map<String, String[]> labels;
    /** Metric scores by name; a metric asked for later is added ({@link RunDir} reads it from the file). */
    private final Map<String, NumberColumn> scores;

    private ResultTable(int size, String[] ids, int[] lines, int[] positions, int[] parseFailures, BitSet errors,
                        byte[] judge, Map<String, NumberColumn> figures, Map<String, String[]> labels,
                        Map<String, NumberColumn> scores) {
        this.size = size;
        this.ids = ids;
        this.lines = lines;
        this.positions = positions;
        this.parseFailures = parseFailures;
        this.errors = errors;
        this.judge = judge;
        this.figures = figures;
        this.labels = labels;
        this.scores = scores;
    }

    int size() {
        return size;
    }

    /** The question id of a row, or null when its line has none. */
    String id(int row) {
        return ids[row];
    }

    /** The line of {@code results.jsonl} (from 1) a row was read from; ascending with the row. */
    int line(int row) {
        return lines[row];
    }

    /** A row's place in the dataset's order (from 0), or -1 when its line does not say (written before it did). */
    int position(int row) {
        return positions[row];
    }

    /**
     * The rows in the dataset's order: by {@link #position}, the rows whose lines do not say after them in file order.
     * Lines are written as questions finish, so file order is finish order.
     */
    int[] datasetOrder() {
        return java.util.stream.IntStream.range(0, size).boxed()
                .sorted(java.util.Comparator.comparingLong(r -> positions[r] < 0 ? Integer.MAX_VALUE + (long) r : positions[r]))
                .mapToInt(Integer::intValue).toArray();
    }

    int parseFailures(int row) {
        return parseFailures[row];
    }

    boolean error(int row) {
        return errors.get(row);
    }

    byte judge(int row) {
        return judge[row];
    }

    /** A per-question figure of {@link #FIGURES}. */
    NumberColumn figure(String name) {
        NumberColumn c = figures.get(name);
        if (c == null) {
            throw new IllegalArgumentException("no per-question figure '" + name + "' in a run's table; known: " + FIGURES);
        }
        return c;
    }

    /** Whether {@code field} is one of {@link #LABELS}. */
    boolean hasLabel(String field) {
        return labels.containsKey(field);
    }

    /** A row's text of a {@link #LABELS} field, or null when its line has none. */
    String label(String field, int row) {
        return labels.get(field)[row];
    }

    /** A metric's scores, or null when not yet in the table. */
    synchronized NumberColumn scores(String metric) {
        return scores.get(metric);
    }

    synchronized void putScores(String metric, NumberColumn column) {
        scores.putIfAbsent(metric, column);
    }

    /** The rows whose id is among {@code wanted}. */
    BitSet rowsOf(Set<String> wanted) {
        BitSet out = new BitSet();
        for (int row = 0; row < size; row++) {
            if (ids[row] != null && wanted.contains(ids[row])) {
                out.set(row);
            }
        }
        return out;
    }

    /** The table of the given rows (ascending), in their order. */
    ResultTable select(int[] rows) {
        String[] i = new String[rows.length];
        int[] l = new int[rows.length];
        int[] pos = new int[rows.length];
        int[] pf = new int[rows.length];
        BitSet err = new BitSet();
        byte[] j = new byte[rows.length];
        for (int k = 0; k < rows.length; k++) {
            int r = rows[k];
            i[k] = ids[r];
            l[k] = lines[r];
            pos[k] = positions[r];
            pf[k] = parseFailures[r];
            j[k] = judge[r];
            if (errors.get(r)) {
                err.set(k);
            }
        }
        Map<String, NumberColumn> f = new LinkedHashMap<>();
        figures.forEach((name, c) -> f.put(name, c.select(rows)));
        Map<String, String[]> lab = new LinkedHashMap<>();
        labels.forEach((name, c) -> {
            String[] s = new String[rows.length];
            for (int k = 0; k < rows.length; k++) {
                s[k] = c[rows[k]];
            }
            lab.put(name, s);
        });
        Map<String, NumberColumn> sc = new HashMap<>();
        synchronized (this) {
            scores.forEach((name, c) -> sc.put(name, c.select(rows)));
        }
        return new ResultTable(rows.length, i, l, pos, pf, err, j, f, lab, sc);
    }

    /**
     * Builds the table line by line. An id answered again keeps its first row, as {@code ResultsFile} (and so the
     * run's summary) does: the eval runner never answers a question twice, so a repeat comes from files joined by hand.
     */
    static final class Builder {

        private final Map<String, Metric> metrics = new LinkedHashMap<>();
        private final Map<String, NumberColumn> scores = new LinkedHashMap<>();
        private final Map<String, NumberColumn> figures = new LinkedHashMap<>();
        private final Map<String, String[]> labels = new LinkedHashMap<>();
        /** One instance per distinct label text: a question type repeats on every line. */
        private final Map<String, String> labelTexts = new HashMap<>();
        /** The row of each id so far: only while building. */
        private final Map<String, Integer> rowOf = new HashMap<>();
        private final BitSet errors = new BitSet();
        private String[] ids = new String[16];
        private int[] lines = new int[16];
        private int[] positions = new int[16];
        private int[] parseFailures = new int[16];
        private byte[] judge = new byte[16];
        private int size;

        /** A builder scoring each line on {@code metricNames} as the comparison table does. */
        Builder(Iterable<String> metricNames) {
            for (String name : metricNames) {
                metrics.put(name, ComparisonTable.metric(name));
                scores.put(name, new NumberColumn(16));
            }
            FIGURES.forEach(f -> figures.put(f, new NumberColumn(16)));
            LABELS.forEach(l -> labels.put(l, new String[16]));
        }

        /** Whether a line answered this question already. */
        boolean answered(String id) {
            return rowOf.containsKey(id);
        }

        /** Adds an answered question's line; false, adding nothing, when its id was answered already. */
        boolean add(int lineNo, ResultLine line) {
            String id = line.id();
            if (id != null && rowOf.putIfAbsent(id, size) != null) {
                return false;
            }
            if (size == ids.length) {
                grow();
            }
            ids[size] = id;
            lines[size] = lineNo;
            positions[size] = line.position() == null || line.position() < 0 ? -1 : line.position();
            parseFailures[size] = line.parseFailures() == null ? 0 : line.parseFailures().size();
            if (line.error() != null) {
                errors.set(size);
            }
            judge[size] = judgeOf(line);
            figures.forEach((name, c) -> {
                Number v = line.figure(name);
                c.add(v == null ? null : v.doubleValue());
            });
            labels.forEach((name, c) -> {
                String text = label(line, name);
                c[size] = text == null ? null : labelTexts.computeIfAbsent(text, t -> t);
            });
            metrics.forEach((name, metric) -> scores.get(name).add(ComparisonTable.value(metric, name, line)));
            size++;
            return true;
        }

        private static byte judgeOf(ResultLine line) {
            if (line.judge() == null) {
                return NOT_JUDGED;
            }
            return switch (String.valueOf(line.judge().outcome())) {
                case "CORRECT" -> CORRECT;
                case "INCORRECT" -> INCORRECT;
                default -> UNPARSED;
            };
        }

        private void grow() {
            int n = ids.length * 2;
            ids = Arrays.copyOf(ids, n);
            lines = Arrays.copyOf(lines, n);
            positions = Arrays.copyOf(positions, n);
            parseFailures = Arrays.copyOf(parseFailures, n);
            judge = Arrays.copyOf(judge, n);
            labels.replaceAll((name, c) -> Arrays.copyOf(c, n));
        }

        ResultTable build() {
            int[] kept = new int[size];
            for (int row = 0; row < size; row++) {
                kept[row] = row;
            }
            ResultTable all = new ResultTable(size, ids, lines, positions, parseFailures, errors, judge, figures, labels, scores);
            // select copies at the exact size: no spare capacity is kept either way
            return all.select(kept);
        }
    }
}
