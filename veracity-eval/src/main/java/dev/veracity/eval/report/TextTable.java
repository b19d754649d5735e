package dev.veracity.eval.report;

import java.util.ArrayList;
import java.util.List;

/**
 * Aligned text for a terminal of a given width: the one renderer of every table and paragraph the command line prints
 * ({@code compare}, eval's closing table, the paired differences, {@code methods}, messages). A table wider than the
 * terminal is fitted column by column in the order of their priorities: a column first takes a shorter form of its
 * cells (a metric without its n, then without its interval), a text column is abbreviated or wrapped down to its
 * least width, and a column that still does not fit is dropped; what was left out is told
 * ({@link Fitted#dropped()}), so that a wider terminal ({@code COLUMNS}) or a file format shows it. Paragraphs are
 * wrapped at spaces ({@link #wrap}); a word longer than the line (a path) is broken, so no line is ever longer than the
 * width asked.
 */
public final class TextTable {

    /** No width limit: every column at its widest form. */
    public static final int UNLIMITED = Integer.MAX_VALUE;

    /** Spaces between two columns. */
    static final int GAP = 2;

    /** How a column's text sits in it. */
    public enum Align { LEFT, RIGHT }

    /** What a column may do to fit: nothing beyond its forms, cut its text ("..."), or wrap it onto more lines. */
    public enum Fit { FIXED, ABBREVIATE, WRAP }

    /**
     * A column.
     *
     * @param header   its header
     * @param align    left for text, right for figures
     * @param fit      what it may do beyond its forms to fit
     * @param minWidth the least width abbreviating or wrapping takes it to
     * @param shrinkAt the priority at which it takes its shorter forms (lower goes first)
     * @param cutAt    the priority at which it is abbreviated or wrapped
     * @param dropAt   the priority at which it is dropped, or {@link Integer#MAX_VALUE} for a column always shown
     */
    public record Column(String header, Align align, Fit fit, int minWidth, int shrinkAt, int cutAt, int dropAt) {

        /** A text column, always shown, taking its shorter forms and then abbreviated to {@code minWidth} at priority {@code p}. */
        public static Column text(String header, int minWidth, int p) {
            return new Column(header, Align.LEFT, Fit.ABBREVIATE, minWidth, p, p, Integer.MAX_VALUE);
        }

        /** A column of figures, always shown. */
        public static Column figure(String header) {
            return new Column(header, Align.RIGHT, Fit.FIXED, 0, Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);
        }

        /** This column, dropped at priority {@code p} when the table does not fit otherwise. */
        public Column dropAt(int p) {
            return new Column(header, align, fit, minWidth, shrinkAt, cutAt, p);
        }

        /** This column, taking its shorter forms at priority {@code p}. */
        public Column shrinkAt(int p) {
            return new Column(header, align, fit, minWidth, p, cutAt, dropAt);
        }

        /** This column, abbreviated (or wrapped) at priority {@code p}. */
        public Column cutAt(int p) {
            return new Column(header, align, fit, minWidth, shrinkAt, p, dropAt);
        }

        /** This column, wrapped (not abbreviated) down to {@code min} characters. */
        public Column wrapped(int min) {
            return new Column(header, align, Fit.WRAP, min, shrinkAt, cutAt, dropAt);
        }
    }

    /**
     * A table fitted to a width.
     *
     * @param lines     the lines, none longer than the width (the header, its rule, the rows)
     * @param dropped   the headers of the columns left out, in table order
     * @param shortened whether a column took a shorter form, or was abbreviated (its full text is in the wider table)
     * @param natural   the width the whole table takes with nothing shortened
     */
    public record Fitted(List<String> lines, List<String> dropped, boolean shortened, int natural) {

        /** The lines joined, each ending in a newline. */
        public String text() {
            StringBuilder sb = new StringBuilder();
            lines.forEach(l -> sb.append(l).append('\n'));
            return sb.toString();
        }

        /**
         * One sentence saying what the fitted table leaves out and how to see it ("" when nothing), e.g. "Columns
         * not shown at 80 characters: samples/q, model s/q; shown at COLUMNS=160."
         */
        public String note(int width, String elsewhere) {
            if (dropped.isEmpty() && !shortened) {
                return "";
            }
            String what = dropped.isEmpty() ? "Columns shortened to fit " + width + " characters"
                    : "Columns not shown at " + width + " characters: " + String.join(", ", dropped)
                    + (shortened ? "; others shortened" : "");
            return what + "; all shown at COLUMNS=" + natural + (elsewhere == null || elsewhere.isEmpty() ? "" : " or " + elsewhere) + ".";
        }
    }

    private final List<Column> columns;
    /** Per row, per column, the cell's forms, widest first. */
    private final List<List<List<String>>> rows = new ArrayList<>();
    private boolean rule = true;
    private boolean header = true;

    public TextTable(List<Column> columns) {
        this.columns = List.copyOf(columns);
    }

    /** Leaves out the header line (and its rule): a list whose columns need no names. */
    public TextTable noHeader() {
        this.header = false;
        this.rule = false;
        return this;
    }

    /** Leaves out the rule of dashes under the header. */
    public TextTable noRule() {
        this.rule = false;
        return this;
    }

    /** A row of one form per cell. */
    public TextTable row(List<String> cells) {
        return rowOfForms(cells.stream().map(List::of).toList());
    }

    /** A row whose cells each give their forms, widest first (a cell with fewer forms keeps its last). */
    public TextTable rowOfForms(List<List<String>> cells) {
        if (cells.size() != columns.size()) {
            throw new IllegalArgumentException("a row of " + cells.size() + " cells in a table of " + columns.size()
                    + " columns");
        }
        cells.forEach(c -> {
            if (c.isEmpty()) {
                throw new IllegalArgumentException("a cell with no text");
            }
        });
        rows.add(List.copyOf(cells));
        return this;
    }

    /** The table at its widest: every column, every cell in its first form. */
    public Fitted render() {
        return render(UNLIMITED);
    }

    /** The table fitted to {@code width} characters. */
    public Fitted render(int width) {
        int n = columns.size();
        int[] form = new int[n];
        int[] cap = new int[n]; // abbreviating / wrapping columns: the width taken, else 0 (natural)
        boolean[] dropped = new boolean[n];
        int natural = total(form, cap, dropped);
        // the moves that narrow the table, by priority: columns shrinking at one priority take their shorter forms
        // together (every metric loses its interval, or none), then abbreviate or wrap, rightmost first; then the
        // columns dropped at that priority go, rightmost first, one at a time
        java.util.TreeSet<Integer> priorities = new java.util.TreeSet<>();
        columns.forEach(col -> {
            priorities.add(col.shrinkAt());
            priorities.add(col.cutAt());
            priorities.add(col.dropAt());
        });
        priorities.remove(Integer.MAX_VALUE);
        for (int p : priorities) {
            if (total(form, cap, dropped) <= width) {
                break;
            }
            List<Integer> shrinking = new ArrayList<>();
            for (int c = n - 1; c >= 0; c--) {
                if (columns.get(c).shrinkAt() == p && !dropped[c]) {
                    shrinking.add(c);
                }
            }
            for (boolean stepped = true; stepped && total(form, cap, dropped) > width; ) {
                stepped = false;
                for (int c : shrinking) {
                    if (form[c] < forms(c) - 1) {
                        form[c]++;
                        stepped = true;
                    }
                }
            }
            for (int c = n - 1; c >= 0; c--) {
                Column col = columns.get(c);
                if (col.cutAt() != p || dropped[c]) {
                    continue;
                }
                int excess = total(form, cap, dropped) - width;
                if (excess > 0 && col.fit() != Fit.FIXED) {
                    int w = width(c, form[c], 0);
                    int to = Math.max(Math.max(col.minWidth(), 1), w - excess);
                    if (to < w) {
                        cap[c] = to;
                    }
                }
            }
            for (int c = n - 1; c >= 0 && total(form, cap, dropped) > width; c--) {
                if (columns.get(c).dropAt() == p) {
                    dropped[c] = true;
                }
            }
        }
        List<String> lines = new ArrayList<>();
        int[] w = new int[n];
        for (int c = 0; c < n; c++) {
            w[c] = dropped[c] ? 0 : width(c, form[c], cap[c]);
        }
        if (header) {
            lines.addAll(line(columns.stream().map(c -> List.of(c.header())).toList(), w, dropped, new int[n]));
        }
        if (rule) {
            lines.add(fit("-".repeat(total(form, cap, dropped)), width));
        }
        for (List<List<String>> row : rows) {
            lines.addAll(line(row, w, dropped, form));
        }
        lines.replaceAll(l -> fit(l, width));
        // shortened: a column shown in a shorter form, or abbreviated, than at full width
        boolean shortened = false;
        for (int c = 0; c < n; c++) {
            if (!dropped[c] && (form[c] > 0 || (columns.get(c).fit() == Fit.ABBREVIATE && cap[c] > 0
                    && cap[c] < width(c, form[c], 0)))) {
                shortened = true;
            }
        }
        List<String> left = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            if (dropped[c]) {
                left.add(columns.get(c).header());
            }
        }
        return new Fitted(List.copyOf(lines), List.copyOf(left), shortened, natural);
    }

    /** One row as its lines: one, or more where a wrapped cell takes several. */
    private List<String> line(List<List<String>> cells, int[] w, boolean[] dropped, int[] form) {
        List<List<String>> parts = new ArrayList<>();
        int height = 1;
        for (int c = 0; c < cells.size(); c++) {
            if (dropped[c]) {
                parts.add(List.of());
                continue;
            }
            String text = text(cells.get(c), form[c]);
            List<String> p;
            if (text.length() <= w[c]) {
                p = List.of(text);
            } else if (columns.get(c).fit() == Fit.WRAP) {
                p = wrapLines(text, w[c]);
            } else {
                p = List.of(abbreviate(text, w[c]));
            }
            parts.add(p);
            height = Math.max(height, p.size());
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < height; i++) {
            StringBuilder sb = new StringBuilder();
            boolean first = true;
            for (int c = 0; c < cells.size(); c++) {
                if (dropped[c]) {
                    continue;
                }
                if (!first) {
                    sb.append(" ".repeat(GAP));
                }
                first = false;
                String s = i < parts.get(c).size() ? parts.get(c).get(i) : "";
                String pad = " ".repeat(Math.max(0, w[c] - s.length()));
                sb.append(columns.get(c).align() == Align.LEFT ? s + pad : pad + s);
            }
            out.add(sb.toString().stripTrailing());
        }
        return out;
    }

    private int forms(int c) {
        int most = 1;
        for (List<List<String>> row : rows) {
            most = Math.max(most, row.get(c).size());
        }
        return most;
    }

    private static String text(List<String> forms, int form) {
        return forms.get(Math.min(form, forms.size() - 1));
    }

    /** A column's width at a form: its widest cell or header, capped (when {@code cap} > 0). */
    private int width(int c, int form, int cap) {
        int w = header ? columns.get(c).header().length() : 0;
        for (List<List<String>> row : rows) {
            w = Math.max(w, text(row.get(c), form).length());
        }
        if (cap > 0) {
            // a wrapped header or cell needs room for its longest word only when the column wraps: capped anyway
            w = Math.min(w, cap);
        }
        return w;
    }

    private int total(int[] form, int[] cap, boolean[] dropped) {
        int sum = 0;
        int shown = 0;
        for (int c = 0; c < columns.size(); c++) {
            if (!dropped[c]) {
                sum += width(c, form[c], cap[c]);
                shown++;
            }
        }
        return sum + GAP * Math.max(0, shown - 1);
    }

    // ---------------------------------------------------------------- lines and paragraphs

    /** The text cut to {@code width} characters, ending in "..." when cut (a width under 4 just cuts). */
    public static String abbreviate(String s, int width) {
        if (s.length() <= width) {
            return s;
        }
        return width < 4 ? s.substring(0, Math.max(0, width)) : s.substring(0, width - 3) + "...";
    }

    /** A line no longer than {@code width}: cut, with "...", when longer. */
    public static String fit(String line, int width) {
        return abbreviate(line, width);
    }

    /**
     * A paragraph wrapped at spaces to {@code width}, the first line starting with {@code first} and the rest with
     * {@code indent}; a word longer than a line is broken. Line breaks in the text start new lines.
     */
    public static String wrap(String text, int width, String first, String indent) {
        StringBuilder out = new StringBuilder();
        String lead = first;
        for (String para : text.split("\n", -1)) {
            int room = Math.max(1, width - Math.max(lead.length(), indent.length()));
            List<String> lines = wrapLines(para, room);
            for (String l : lines) {
                out.append(lead).append(l).append('\n');
                lead = indent;
            }
        }
        return out.toString();
    }

    /** A paragraph wrapped at spaces to {@code width} (every line it gives, at least one). */
    public static String wrap(String text, int width) {
        return wrap(text, width, "", "");
    }

    static List<String> wrapLines(String text, int width) {
        int w = Math.max(1, width);
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.strip().split("\\s+")) {
            if (word.isEmpty()) {
                continue;
            }
            while (word.length() > w) { // a word longer than a line: what fits of it, then the rest
                if (!line.isEmpty()) {
                    lines.add(line.toString());
                    line.setLength(0);
                }
                lines.add(word.substring(0, w));
                word = word.substring(w);
            }
            if (!line.isEmpty() && line.length() + 1 + word.length() > w) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (!line.isEmpty()) {
                line.append(' ');
            }
            line.append(word);
        }
        if (!line.isEmpty() || lines.isEmpty()) {
            lines.add(line.toString());
        }
        return lines;
    }
}
