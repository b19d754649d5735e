package dev.veracity.eval.report;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.trace.CallRecord;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A section of the report's question pages: what a method decided for one question (its candidates, its signals, a
 * plug-in method's own verdicts), read from the question's result line and, when the run kept them, its calls.
 * Contributed through {@link ReportSectionProvider}; the built-in ones through {@link BuiltInReportSections}.
 *
 * <p>A section gives text, never markup: the page escapes every cell, so model output shown in a section cannot
 * inject HTML.
 */
public interface QuestionSection {

    /** A short unique name ("candidates", "signals", a plug-in's own). */
    String name();

    /**
     * The section for one question, or empty when it has nothing to show (a run of another method, a line without
     * what it reads). Must not throw for any line: a section that throws is shown as one line saying so instead.
     *
     * @param method the run's method, as {@code summary.json} names it (a composition such as {@code court+march}); "" when
     *               the run does not say
     * @param line   the question's result line
     * @param calls  the question's calls from the run's traces, in order; empty when the run kept none
     */
    Optional<Section> render(String method, ResultLine line, List<CallRecord> calls);

    /**
     * The names of sections this one shows in full when it renders (a method's own view of what a generic section
     * lists, such as the Court's agents beside the built-in "candidates"): the page then leaves those out, so a
     * question page never shows the same table twice. None by default.
     */
    default java.util.Set<String> replaces() {
        return java.util.Set.of();
    }

    /**
     * What a page shows: a heading, a table (column names and rows of cells), titled blocks under it (each a table and
     * notes of its own: one agent's steps, one debate round) and notes at the end. Every string is text: the page
     * escapes it.
     *
     * @param title   the heading
     * @param columns the table's column names (empty: no table)
     * @param rows    its rows, each as many cells as there are columns
     * @param notes   lines of text under the table and the blocks
     * @param blocks  titled parts of the section, in order, shown between its table and its notes
     */
    record Section(String title, List<String> columns, List<List<String>> rows, List<String> notes, List<Block> blocks) {
        public Section {
            Objects.requireNonNull(title, "title");
            columns = List.copyOf(columns);
            rows = cells(title, columns, rows);
            notes = List.copyOf(notes);
            blocks = List.copyOf(blocks);
        }

        /** A section of one table and its notes, without blocks. */
        public Section(String title, List<String> columns, List<List<String>> rows, List<String> notes) {
            this(title, columns, rows, notes, List.of());
        }
    }

    /**
     * A titled part of a {@link Section}: a table (column names and rows of cells; no columns, no table) and notes
     * under it.
     *
     * @param title   the block's heading
     * @param columns the table's column names (empty: no table)
     * @param rows    its rows, each as many cells as there are columns
     * @param notes   lines of text under the table
     */
    record Block(String title, List<String> columns, List<List<String>> rows, List<String> notes) {
        public Block {
            Objects.requireNonNull(title, "title");
            columns = List.copyOf(columns);
            rows = cells(title, columns, rows);
            notes = List.copyOf(notes);
        }
    }

    /** The rows with null cells as "", each checked to have a cell per column. */
    private static List<List<String>> cells(String title, List<String> columns, List<List<String>> rows) {
        List<List<String>> out = rows.stream().map(r -> r.stream().map(c -> Objects.requireNonNullElse(c, "")).toList())
                .toList();
        for (List<String> r : out) {
            if (r.size() != columns.size()) {
                throw new IllegalArgumentException("section '" + title + "': a row of " + r.size() + " cells under "
                        + columns.size() + " columns");
            }
        }
        return out;
    }
}
