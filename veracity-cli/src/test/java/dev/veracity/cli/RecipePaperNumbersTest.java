package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.eval.recipe.Recipe;
import dev.veracity.eval.recipe.Recipes;
import dev.veracity.methods.Methods;
import dev.veracity.testing.Shared;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every paper number of every bundled recipe is found in its table in the paper's text ({@code ../shared/papers},
 * beside the repository; without it the test skips, or fails under CI: {@link Shared}), in the right place: a wrong
 * digit, a swapped cell or a row put on another row's line fails.
 *
 * <p>The table is the text from the recipe's {@code paper.anchor} to its {@code paper.end}. HTML rows become
 * {@code | cell | cell |} lines; MARCH's "12.807.20&#92;uparrow 7.20" (a value run into its printed gain) becomes the value.
 * Then, by {@code paper.layout}:
 * <ul>
 *   <li>{@code rows}: the {@code occurrence}-th line whose label is the row's (a cell of a {@code |} line before its
 *       numbers, or the start of a plain line) holds the row's numbers at {@code tokens} (default: all of them, in
 *       order), "-" where the recipe has none;</li>
 *   <li>{@code columns}: for each block of rows, each column's numbers appear one after another in the table's text
 *       (the extraction lists those tables column by column);</li>
 *   <li>{@code runs}: each listed cell sequence appears one after another, and every cell is in one.</li>
 * </ul>
 * A value printed without its last digit ("16.") must be written so in the recipe.
 */
class RecipePaperNumbersTest {

    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.])(-?\\d+(?:\\.\\d*)?)(?![\\w.])");
    private static final Pattern TOKEN = Pattern.compile("(?<![\\w.])(-?\\d+(?:\\.\\d*)?|-)(?![\\w.])");
    private static final Pattern GAIN = Pattern.compile("(\\d+\\.\\d+?)(\\d+\\.\\d+)\\\\(?:up|down)arrow\\s*\\2(?!\\d)");

    @Test
    void everyRecipeNumberIsInItsTableRow() throws IOException {
        Path dir = Shared.papers();
        List<Recipe> all = new Recipes(Methods::spec).all();
        assertThat(all).hasSizeGreaterThanOrEqualTo(11);
        List<String> problems = new ArrayList<>();
        int checked = 0;
        for (Recipe r : all) {
            String paper = Files.readString(dir.resolve(r.paper().file() + ".txt"));
            problems.addAll(check(r, paper));
            checked += r.rows().stream().mapToLong(row -> row.paper().stream().filter(v -> v != null).count()).sum();
        }
        assertThat(problems).as("recipe numbers not where the paper prints them").isEmpty();
        assertThat(checked).as("paper numbers checked").isGreaterThan(700);
    }

    @Test
    void aWrongTranscriptionFails() throws IOException {
        Path dir = Shared.papers();
        Recipes recipes = new Recipes(Methods::spec);
        // one altered digit, two cells swapped, a row's numbers moved to the next row of its table; one per layout
        for (String name : List.of("court-table1", "court-table2", "truthrl-table1", "truthrl-table3", "c3po-table1", "march-table5", "madam-table1")) {
            String yaml = Recipes.text(name);
            Recipe ok = recipes.parse(name, yaml);
            String paper = Files.readString(dir.resolve(ok.paper().file() + ".txt"));
            assertThat(check(ok, paper)).as(name).isEmpty();
            Recipe.Row row = ok.rows().get(ok.rows().size() - 1);
            List<String> p = row.paper();
            int i = 0;
            while (p.get(i) == null || p.get(i).endsWith(".")) {
                i++;
            }
            List<String> digit = new ArrayList<>(p);
            digit.set(i, bump(p.get(i)));
            assertThat(check(withPaper(ok, row, digit), paper)).as(name + " with one digit changed").isNotEmpty();
            int j = i + 1;
            while (p.get(j) == null || p.get(j).equals(p.get(i))) {
                j++;
            }
            List<String> swapped = new ArrayList<>(p);
            swapped.set(i, p.get(j));
            swapped.set(j, p.get(i));
            assertThat(check(withPaper(ok, row, swapped), paper)).as(name + " with two cells swapped").isNotEmpty();
            Recipe.Row other = ok.rows().get(ok.rows().size() - 2);
            assertThat(check(withPaper(ok, row, other.paper()), paper)).as(name + " with another row's numbers").isNotEmpty();
        }
    }

    private static String bump(String v) {
        char last = v.charAt(v.length() - 1);
        return v.substring(0, v.length() - 1) + (last == '9' ? '8' : (char) (last + 1));
    }

    private static Recipe withPaper(Recipe r, Recipe.Row row, List<String> paper) {
        List<Recipe.Row> rows = new ArrayList<>();
        for (Recipe.Row x : r.rows()) {
            rows.add(x != row ? x : new Recipe.Row(x.id(), x.label(), x.occurrence(), x.tokens(), x.block(), x.model(),
                    x.method(), x.options(), x.questions(), paper, x.notRun()));
        }
        return new Recipe(r.name(), r.title(), r.paper(), r.split(), r.models(), r.sampling(), r.judge(), r.documents(),
                r.files(), r.tolerance(), r.needs(), r.notes(), r.columns(), rows, r.subset(), r.questionsAtOnce());
    }

    /** The problems of one recipe against its paper's text, one line each. */
    static List<String> check(Recipe r, String paperText) {
        List<String> problems = new ArrayList<>();
        int a = paperText.indexOf(r.paper().anchor());
        if (a < 0) {
            return List.of(r.name() + ": anchor not in " + r.paper().file() + ": " + r.paper().anchor());
        }
        int e = r.paper().end() == null ? -1 : paperText.indexOf(r.paper().end(), a + r.paper().anchor().length());
        if (r.paper().end() != null && e < 0) {
            return List.of(r.name() + ": end not found after the anchor: " + r.paper().end());
        }
        String region = normalise(paperText.substring(a, e < 0 ? Math.min(paperText.length(), a + 20_000)
                : e + r.paper().end().length()));
        switch (r.paper().layout()) {
            case "rows" -> rows(r, region, problems);
            case "columns" -> {
                Map<String, List<Recipe.Row>> blocks = new LinkedHashMap<>();
                r.rows().forEach(row -> blocks.computeIfAbsent(String.valueOf(row.block()), k -> new ArrayList<>()).add(row));
                List<String> tokens = numbers(region);
                blocks.forEach((block, rows) -> {
                    for (int c = 0; c < r.columns().size(); c++) {
                        List<String> values = new ArrayList<>();
                        for (Recipe.Row row : rows) {
                            if (row.paper().get(c) != null) {
                                values.add(row.paper().get(c));
                            }
                        }
                        if (!values.isEmpty() && !contiguous(tokens, values)) {
                            problems.add(r.name() + ": block " + block + ", column " + r.columns().get(c).id() + ": "
                                    + values + " are not listed together in the table's text");
                        }
                    }
                });
            }
            case "runs" -> {
                List<String> tokens = numbers(region);
                java.util.Set<String> covered = new java.util.HashSet<>();
                for (List<String> run : r.paper().runs()) {
                    List<String> values = new ArrayList<>();
                    for (String cell : run) {
                        String[] rc = cell.split(":", 2);
                        Recipe.Row row = r.rows().stream().filter(x -> x.id().equals(rc[0])).findFirst().orElseThrow();
                        int c = r.columns().indexOf(r.column(rc[1]).orElseThrow());
                        values.add(row.paper().get(c));
                        covered.add(cell);
                    }
                    if (!contiguous(tokens, values)) {
                        problems.add(r.name() + ": " + run + " = " + values + " are not listed together in the table's text");
                    }
                }
                for (Recipe.Row row : r.rows()) {
                    for (int c = 0; c < r.columns().size(); c++) {
                        if (row.paper().get(c) != null && !covered.contains(row.id() + ":" + r.columns().get(c).id())) {
                            problems.add(r.name() + ": " + row.id() + ":" + r.columns().get(c).id() + " is in no paper.runs sequence");
                        }
                    }
                }
            }
            default -> problems.add(r.name() + ": unknown layout " + r.paper().layout());
        }
        return problems;
    }

    private static void rows(Recipe r, String region, List<String> problems) {
        List<String> lines = region.lines().toList();
        for (Recipe.Row row : r.rows()) {
            List<String> tokens = null;
            int seen = 0;
            for (String line : lines) {
                List<String> t = afterLabel(line, row.label());
                if (t != null && ++seen == row.occurrence()) {
                    tokens = t;
                    break;
                }
            }
            if (tokens == null) {
                problems.add(r.name() + ": row " + row.id() + ": no line " + row.occurrence() + " labelled '" + row.label() + "'");
                continue;
            }
            List<Integer> at = row.tokens();
            if (at == null) {
                if (tokens.size() != row.paper().size()) {
                    problems.add(r.name() + ": row " + row.id() + ": the line has " + tokens.size() + " numbers " + tokens
                            + ", the recipe " + row.paper().size());
                    continue;
                }
                at = java.util.stream.IntStream.range(0, tokens.size()).boxed().toList();
            }
            for (int c = 0; c < row.paper().size(); c++) {
                String want = row.paper().get(c);
                String got = at.get(c) < tokens.size() ? tokens.get(at.get(c)) : "(none)";
                if (want == null ? !got.equals("-") : !same(want, got)) {
                    problems.add(r.name() + ": row " + row.id() + ", column " + r.columns().get(c).id() + ": recipe "
                            + (want == null ? "-" : want) + ", paper " + got);
                }
            }
        }
    }

    /** The numbers (and "-") of a line after its label, or null when the line is not labelled so. */
    private static List<String> afterLabel(String line, String label) {
        String l = line.strip();
        if (l.startsWith("|")) {
            String[] cells = l.split("\\|");
            for (int i = 0; i < cells.length; i++) {
                String cell = cells[i].strip();
                if (TOKEN.matcher(cell).matches()) {
                    return null; // numbers begin before the label
                }
                if (cell.equals(label)) {
                    List<String> out = new ArrayList<>();
                    for (int k = i + 1; k < cells.length; k++) {
                        out.addAll(tokens(cells[k]));
                    }
                    return out;
                }
            }
            return null;
        }
        if (!l.startsWith(label)) {
            return null;
        }
        String rest = l.substring(label.length()).strip();
        if (NUMBER.matcher(label).matches()) {
            return tokens(l); // a line without a label, found by its first number
        }
        if (rest.isEmpty() || !(Character.isDigit(rest.charAt(0)) || rest.charAt(0) == '-')) {
            return null;
        }
        return tokens(rest);
    }

    private static List<String> tokens(String s) {
        List<String> out = new ArrayList<>();
        Matcher m = TOKEN.matcher(s);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static List<String> numbers(String s) {
        List<String> out = new ArrayList<>();
        Matcher m = NUMBER.matcher(s);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static boolean contiguous(List<String> tokens, List<String> values) {
        outer:
        for (int i = 0; i + values.size() <= tokens.size(); i++) {
            for (int k = 0; k < values.size(); k++) {
                if (values.get(k) == null || !same(values.get(k), tokens.get(i + k))) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** Equal numbers, and both or neither printed without their last digit. */
    private static boolean same(String recipe, String paper) {
        if (paper.equals("-") || recipe.endsWith(".") != paper.endsWith(".")) {
            return false;
        }
        return decimal(recipe).compareTo(decimal(paper)) == 0;
    }

    private static BigDecimal decimal(String s) {
        return new BigDecimal(s.endsWith(".") ? s + "0" : s);
    }

    /** HTML rows as "| a | b |" lines, a value run into its printed gain as the value. */
    static String normalise(String region) {
        Matcher tr = Pattern.compile("(?s)<tr>(.*?)</tr>").matcher(region);
        StringBuilder sb = new StringBuilder();
        while (tr.find()) {
            List<String> cells = new ArrayList<>();
            Matcher td = Pattern.compile("(?s)<t[dh][^>]*>(.*?)</t[dh]>").matcher(tr.group(1));
            while (td.find()) {
                cells.add(td.group(1).replaceAll("<[^>]+>", "").strip());
            }
            tr.appendReplacement(sb, Matcher.quoteReplacement("\n| " + String.join(" | ", cells) + " |\n"));
        }
        tr.appendTail(sb);
        return GAIN.matcher(sb.toString()).replaceAll("$1");
    }
}
