package dev.veracity.eval.report;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.metrics.Metric;
import java.util.ArrayList;
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
 * tree of a line is kept, and no object per question: every column is a {@link MappedArray} off the heap (about
 * 130 bytes a question of mapped memory, which the kernel may page out), so the heap a table holds does not grow with
 * the run. What else a consumer needs of a line it reads again from the file ({@link RunDir#forEachResult}).
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

    /** The flag bit of a row whose line has an error; the judge's outcome is in the low bits. */
    private static final int ERROR = 0x10;

    private final int size;
    private final IdColumn ids;
    private final MappedArray lines;
    /** Each row's place in the dataset's order ({@link ResultLine#position}), or -1 when its line has none. */
    private final MappedArray positions;
    private final MappedArray parseFailures;
    /** The judge's outcome and the error bit. */
    private final MappedArray flags;
    private final Map<String, NumberColumn> figures;
    private final Map<String, LabelColumn> labels;
    /** Metric scores by name; a metric asked for later is added ({@link RunDir} reads it from the file). */
    private final Map<String, NumberColumn> scores;

    private ResultTable(int size, IdColumn ids, MappedArray lines, MappedArray positions, MappedArray parseFailures,
                        MappedArray flags, Map<String, NumberColumn> figures, Map<String, LabelColumn> labels,
                        Map<String, NumberColumn> scores) {
        this.size = size;
        this.ids = ids;
        this.lines = lines;
        this.positions = positions;
        this.parseFailures = parseFailures;
        this.flags = flags;
        this.figures = figures;
        this.labels = labels;
        this.scores = scores;
    }

    int size() {
        return size;
    }

    /** The question id of a row, or null when its line has none. */
    String id(int row) {
        return ids.id(row);
    }

    /** Whether a row's line has an id. */
    boolean hasId(int row) {
        return ids.hasId(row);
    }

    /** The row of question {@code id}, or -1. */
    int rowOf(String id) {
        return ids.rowOf(id);
    }

    /** The row here of the question at {@code row} in {@code other} (the same id), or -1. */
    int rowOf(ResultTable other, int row) {
        return ids.rowOf(other.ids, row);
    }

    /** The line of {@code results.jsonl} (from 1) a row was read from; ascending with the row. */
    int line(int row) {
        return lines.getInt(row);
    }

    /** A row's place in the dataset's order (from 0), or -1 when its line does not say (written before it did). */
    int position(int row) {
        return positions.getInt(row);
    }

    /**
     * The rows in the dataset's order: by {@link #position}, the rows whose lines do not say after them in file order.
     * Lines are written as questions finish, so file order is finish order. (An array of the rows: 4 bytes a question
     * while the caller holds it.)
     */
    int[] datasetOrder() {
        long[] placed = new long[size];
        int k = 0;
        for (int row = 0; row < size; row++) {
            int p = position(row);
            if (p >= 0) {
                placed[k++] = (long) p << 32 | row; // by place, then by row (both below 2^31)
            }
        }
        Arrays.sort(placed, 0, k);
        int[] out = new int[size];
        for (int i = 0; i < k; i++) {
            out[i] = (int) placed[i];
        }
        for (int row = 0; row < size; row++) {
            if (position(row) < 0) {
                out[k++] = row;
            }
        }
        return out;
    }

    int parseFailures(int row) {
        return parseFailures.getInt(row);
    }

    boolean error(int row) {
        return (flags.getByte(row) & ERROR) != 0;
    }

    byte judge(int row) {
        return (byte) (flags.getByte(row) & ~ERROR);
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
        return labels.get(field).get(row);
    }

    /** A metric's scores, or null when not yet in the table. */
    synchronized NumberColumn scores(String metric) {
        return scores.get(metric);
    }

    synchronized void putScores(String metric, NumberColumn column) {
        scores.putIfAbsent(metric, column.seal());
    }

    /** The rows whose id is among {@code wanted}. */
    BitSet rowsOf(Set<String> wanted) {
        BitSet out = new BitSet();
        for (String id : wanted) {
            int row = ids.rowOf(id);
            if (row >= 0) {
                out.set(row);
            }
        }
        return out;
    }

    /** The table of the given rows (ascending), in their order. */
    ResultTable select(int[] rows) {
        IdColumn i = new IdColumn(rows.length);
        MappedArray l = new MappedArray(4, rows.length);
        MappedArray pos = new MappedArray(4, rows.length);
        MappedArray pf = new MappedArray(4, rows.length);
        MappedArray fl = new MappedArray(1, rows.length);
        for (int k = 0; k < rows.length; k++) {
            int r = rows[k];
            i.add(ids.id(r)); // ids are unique in a table: each gets its own row
            l.putInt(k, line(r));
            pos.putInt(k, position(r));
            pf.putInt(k, parseFailures(r));
            fl.putByte(k, flags.getByte(r));
        }
        Map<String, NumberColumn> f = new LinkedHashMap<>();
        figures.forEach((name, c) -> f.put(name, c.select(rows)));
        Map<String, LabelColumn> lab = new LinkedHashMap<>();
        labels.forEach((name, c) -> lab.put(name, c.select(rows)));
        Map<String, NumberColumn> sc = new HashMap<>();
        synchronized (this) {
            scores.forEach((name, c) -> sc.put(name, c.select(rows)));
        }
        l.seal();
        pos.seal();
        pf.seal();
        fl.seal();
        return new ResultTable(rows.length, i.seal(), l, pos, pf, fl, f, lab, sc);
    }

    /** A text field per row as a code off the heap, its distinct texts (a question type's handful) on it. */
    private static final class LabelColumn {

        private final MappedArray codes;
        private final List<String> texts;
        private final Map<String, Integer> codeOf = new HashMap<>();
        private int size;

        LabelColumn(int capacity, List<String> texts) {
            this.codes = new MappedArray(4, capacity);
            this.texts = texts;
            for (int c = 0; c < texts.size(); c++) {
                codeOf.put(texts.get(c), c);
            }
        }

        void add(String text) {
            int code = -1;
            if (text != null) {
                code = codeOf.computeIfAbsent(text, t -> {
                    texts.add(t);
                    return texts.size() - 1;
                });
            }
            codes.putInt(size++, code);
        }

        String get(int row) {
            int code = codes.getInt(row);
            return code < 0 ? null : texts.get(code);
        }

        LabelColumn select(int[] rows) {
            LabelColumn out = new LabelColumn(rows.length, new ArrayList<>(texts));
            for (int r : rows) {
                out.codes.putInt(out.size++, codes.getInt(r));
            }
            return out.seal();
        }

        LabelColumn seal() {
            codes.seal();
            return this;
        }
    }

    /**
     * Builds the table line by line. An id answered again keeps its first row, as {@code ResultsFile} (and so the
     * run's summary) does: the eval runner never answers a question twice, so a repeat comes from files joined by hand.
     */
    static final class Builder {

        private static final int START = 1024;

        private final Map<String, Metric> metrics = new LinkedHashMap<>();
        private final Map<String, NumberColumn> scores = new LinkedHashMap<>();
        private final Map<String, NumberColumn> figures = new LinkedHashMap<>();
        private final Map<String, LabelColumn> labels = new LinkedHashMap<>();
        private final IdColumn ids = new IdColumn(START);
        private final MappedArray lines = new MappedArray(4, START);
        private final MappedArray positions = new MappedArray(4, START);
        private final MappedArray parseFailures = new MappedArray(4, START);
        private final MappedArray flags = new MappedArray(1, START);
        private int size;

        /** A builder scoring each line on {@code metricNames} as the comparison table does. */
        Builder(Iterable<String> metricNames) {
            for (String name : metricNames) {
                metrics.put(name, ComparisonTable.metric(name));
                scores.put(name, new NumberColumn(START));
            }
            FIGURES.forEach(f -> figures.put(f, new NumberColumn(START)));
            LABELS.forEach(l -> labels.put(l, new LabelColumn(START, new ArrayList<>())));
        }

        /** Whether a line answered this question already. */
        boolean answered(String id) {
            return ids.rowOf(id) >= 0;
        }

        /** Adds an answered question's line; false, adding nothing, when its id was answered already. */
        boolean add(int lineNo, ResultLine line) {
            if (ids.add(line.id()) < 0) {
                return false;
            }
            lines.putInt(size, lineNo);
            positions.putInt(size, line.position() == null || line.position() < 0 ? -1 : line.position());
            parseFailures.putInt(size, line.parseFailures() == null ? 0 : line.parseFailures().size());
            flags.putByte(size, (byte) (judgeOf(line) | (line.error() != null ? ERROR : 0)));
            figures.forEach((name, c) -> {
                Number v = line.figure(name);
                c.add(v == null ? null : v.doubleValue());
            });
            labels.forEach((name, c) -> c.add(label(line, name)));
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

        ResultTable build() {
            lines.seal();
            positions.seal();
            parseFailures.seal();
            flags.seal();
            figures.values().forEach(NumberColumn::seal);
            labels.values().forEach(LabelColumn::seal);
            scores.values().forEach(NumberColumn::seal);
            return new ResultTable(size, ids.seal(), lines, positions, parseFailures, flags, figures, labels,
                    new HashMap<>(scores));
        }
    }
}
