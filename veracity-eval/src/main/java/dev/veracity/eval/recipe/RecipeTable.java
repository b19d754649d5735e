package dev.veracity.eval.recipe;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.ResultsJson;
import dev.veracity.eval.results.Summary;
import dev.veracity.eval.metrics.Aggregate;
import dev.veracity.eval.metrics.Metric;
import dev.veracity.eval.metrics.Metrics;
import dev.veracity.eval.report.RunDir;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Our numbers beside the paper's, cell by cell: for every row and column the paper's number, ours (from the run's
 * {@code summary.json}, in the paper's units), the difference and a verdict. A run over the paper's whole split
 * marks each cell within or outside the recipe's tolerance (as Anserini's regressions do); a cell that is not over the
 * paper's split is labelled "not comparable", with why, in the heading and in the cell. Each run is judged from its
 * own record ({@code summary.json}), whichever reproduce made it: a {@code limit} below the split's, the built-in
 * simulator as its server, a data file that is not the paper's (its {@code data_sha256} is not the registry's; without
 * a checksum, a whole-file split of another question count than the registry's), failed questions, a run cut short
 * (fewer answered and failed than its {@code questions}), fewer answered than the split takes, and, where the recipe
 * pins them, other questions at once. A run whose summary predates {@code questions} is judged as before: by the
 * calling command's {@code --limit} or simulator, the data files it was given, its checksum and its failures. A
 * dataset whose split the registry cannot check (no checksum, no question count) is graded with an
 * {@code UNVERIFIED SPLIT} line in the heading. A recipe with a
 * {@link Recipe.Subset} has every cell re-scored over the result lines of the questions its subset row's run picks on
 * that dataset; the heading says so with the subset's size per dataset, a dataset without that run has its cells not
 * run, and a cell whose run lacks some of the subset's questions says over how many it is.
 */
public final class RecipeTable {

    /** One cell. */
    public record Cell(Recipe.Row row, Recipe.Column column, PaperValue paper, Double ours, String status) {
    }

    private final Recipe recipe;
    private final List<Cell> cells;
    private final String everyRun;
    private final List<String> notComparable;
    private final String ourModel;
    private final String plumbing;
    private final Map<String, Subset> subsets;

    /** What every run did that makes no cell comparable: {@code --limit}. */
    public static final String LIMIT = "--limit";
    /** What every run did that makes no cell comparable: the built-in simulator answered. */
    public static final String SIMULATOR = "simulator";
    /**
     * What a run of {@code reproduce --simulator} records as its server (run.json's {@code llm_base_url}), in place of
     * the in-process simulator's URL, whose port changes with every start: how a later table tells its runs apart.
     */
    public static final String SIMULATOR_SERVER = "built-in simulator (extractive reader)";
    private static final String DATA_FILE = "data file";
    private static final String PARTIAL = "partial";
    private static final String FEWER = "fewer questions";

    /**
     * A data file given for a dataset that is not the paper's split.
     *
     * @param sha256 its SHA-256, as the runs that read it record it ({@code config.data_sha256})
     * @param why    the file and why it is not the paper's split, in a few words
     */
    public record DataFile(String sha256, String why) {
    }

    /**
     * The recipe's subset on one dataset: the questions of the subset row's run that satisfy the rule.
     *
     * @param ids the questions' ids, in the run's order
     * @param of  the questions of the subset row's run on that dataset
     */
    public record Subset(Set<String> ids, int of) {
    }

    private RecipeTable(Recipe recipe, List<Cell> cells, String everyRun, List<String> notComparable, String ourModel,
                        String plumbing, Map<String, Subset> subsets) {
        this.recipe = recipe;
        this.cells = List.copyOf(cells);
        this.everyRun = everyRun; // what every run that has a number shares (LIMIT, SIMULATOR), or null
        this.notComparable = List.copyOf(notComparable);
        this.ourModel = ourModel;
        this.plumbing = plumbing;
        this.subsets = subsets;
    }

    /**
     * Builds the table.
     *
     * @param runs       the run folder of a row on a dataset (row id, dataset), if there is one
     * @param comparable whether every run covered the paper's split (no {@code --limit})
     * @param ourModel   the model our runs used
     * @param plumbing   a line saying the runs measure plumbing only (the simulator), or null
     */
    public static RecipeTable of(Recipe recipe, BiFunction<String, String, Optional<RunDir>> runs, boolean comparable,
                                 String ourModel, String plumbing) {
        return of(recipe, runs, comparable ? null : LIMIT, Map.of(), ourModel, plumbing);
    }

    /**
     * Builds the table.
     *
     * @param runs      the run folder of a row on a dataset (row id, dataset), if there is one
     * @param everyRun  what the calling command did that makes its runs not comparable ({@link #LIMIT},
     *                  {@link #SIMULATOR}), or null: it judges only runs whose summary does not record their slice
     *                  (written before it did); every other run is judged from its own record
     * @param dataFiles per dataset whose data file (given to the calling command) is not the paper's split, the file:
     *                  a heading line each; the runs that read it (by their recorded SHA-256; every run on the dataset
     *                  whose summary does not record its slice) are not comparable
     * @param ourModel  the model our runs used
     * @param plumbing  a line saying the runs measure plumbing only (the simulator), or null
     */
    public static RecipeTable of(Recipe recipe, BiFunction<String, String, Optional<RunDir>> runs, String everyRun,
                                 Map<String, DataFile> dataFiles, String ourModel, String plumbing) {
        Headings headings = new Headings();
        dataFiles.forEach((d, file) -> headings.line("NOT COMPARABLE on " + d + ": " + file.why() + "; the runs that"
                + " read it are not checked against the paper's number"));
        // per row and dataset whose run has a number to judge, why it is not comparable ("" when it is)
        Map<String, String> reasons = new LinkedHashMap<>();
        BiFunction<String, String, String> why = (row, dataset) -> {
            String key = row + "\u0000" + dataset;
            if (!reasons.containsKey(key) && runs.apply(row, dataset).isPresent()) {
                String r = reason(recipe, runs.apply(row, dataset).get(), everyRun, dataFiles, row, dataset, headings);
                reasons.put(key, r == null ? "" : r);
            }
            String r = reasons.get(key);
            return r == null || r.isEmpty() ? null : r;
        };
        Map<String, Subset> subsets = new LinkedHashMap<>();
        if (recipe.subset() != null) {
            SubsetRule rule = recipe.subset().rule();
            for (String d : recipe.datasets()) {
                runs.apply(recipe.subset().row(), d).ifPresent(run -> subsets.put(d, subset(run, rule)));
            }
        }
        List<Cell> cells = new ArrayList<>();
        for (Recipe.Row row : recipe.rows()) {
            List<Double> ours = new ArrayList<>();
            for (int c = 0; c < recipe.columns().size(); c++) {
                Recipe.Column col = recipe.columns().get(c);
                PaperValue p = c < row.paper().size() ? PaperValue.of(row.paper().get(c)) : null;
                Double v;
                String status;
                String notComparable = row.notRun() != null || col.notRun() != null ? null : cellReason(recipe, row,
                        col, why);
                if (row.notRun() != null || col.notRun() != null) {
                    v = null;
                    status = status(recipe, row, col, p, null, null);
                } else if (recipe.subset() != null && col.dataset() != null) {
                    Subset subset = subsets.get(col.dataset());
                    Optional<RunDir> run = runs.apply(row.id(), col.dataset());
                    if (subset == null) {
                        v = null;
                        status = "not run: no run of the subset's row " + recipe.subset().row() + " on " + col.dataset();
                    } else if (subset.ids().isEmpty()) {
                        v = null;
                        status = "no result: the subset is empty";
                    } else if (run.isEmpty()) {
                        v = null;
                        status = "no result";
                    } else {
                        Set<String> matched = new java.util.HashSet<>();
                        Double over = over(run.get(), col, l -> subset.ids().contains(l.id()), matched);
                        v = over == null ? null : over * col.scale();
                        status = status(recipe, row, col, p, v, notComparable);
                        long answered = matched.size();
                        if (v != null && answered < subset.ids().size()) {
                            status += " (over " + answered + " of the subset's " + subset.ids().size() + " questions)";
                        }
                    }
                } else {
                    v = ours(recipe, row, col, ours, runs);
                    status = status(recipe, row, col, p, v, notComparable);
                }
                ours.add(v);
                cells.add(new Cell(row, col, p, v, status));
            }
        }
        // every run behind a number used --limit, or the simulator: one line says so for all (as the calling command did)
        java.util.Collection<String> judged = reasons.values();
        String shared = judged.isEmpty() ? null : judged.stream().allMatch(LIMIT::equals) ? LIMIT
                : judged.stream().allMatch(SIMULATOR::equals) ? SIMULATOR : null;
        return new RecipeTable(recipe, cells, shared, headings.lines(shared), ourModel, plumbing, subsets);
    }

    /**
     * The heading's lines in order of first sight: one per reason and run, except that the runs of a dataset that used
     * {@code --limit} or the simulator share one line (and none is kept when every run shares it: the table says so in
     * one line), as do the runs graded on a dataset whose split the registry cannot check.
     */
    private static final class Headings {
        private static final String UNVERIFIED = "unverified";

        /** A line shared by runs of one dataset: the rows that used --limit or the simulator, or the files read. */
        private record Group(String kind, String dataset, String official, List<String> members) {
        }

        private final Map<String, Object> lines = new LinkedHashMap<>(); // key -> a line's text, or its Group

        void line(String text) {
            lines.putIfAbsent(text, text);
        }

        /** A run of {@code row} on {@code dataset} that used --limit or the simulator ({@code kind}). */
        void shared(String kind, String dataset, String row) {
            add(kind, dataset, null, row);
        }

        /** A run graded on a dataset whose split the registry cannot check ({@code official}): the file it read. */
        void unverified(String dataset, String official, String file) {
            add(UNVERIFIED, dataset, official, file);
        }

        private void add(String kind, String dataset, String official, String member) {
            Group g = (Group) lines.computeIfAbsent(kind + "\u0000" + dataset,
                    k -> new Group(kind, dataset, official, new ArrayList<>()));
            if (!g.members().contains(member)) {
                g.members().add(member);
            }
        }

        List<String> lines(String everyRun) {
            List<String> out = new ArrayList<>();
            for (Object line : lines.values()) {
                if (!(line instanceof Group g)) {
                    out.add((String) line);
                } else if (g.kind().equals(UNVERIFIED)) {
                    out.add(unverifiedLine(g.dataset(), g.official(), String.join(", ", g.members())));
                } else if (!g.kind().equals(everyRun)) {
                    String whose = g.members().size() == 1 ? "row " + g.members().getFirst() + "'s run"
                            : "the runs of rows " + String.join(", ", g.members());
                    out.add("NOT COMPARABLE on " + g.dataset() + ": " + whose + (g.kind().equals(LIMIT)
                            ? " used --limit, fewer questions than the paper's split"
                            : " ran against the built-in simulator (plumbing only)")
                            + "; not checked against the paper's number");
                }
            }
            return out;
        }
    }

    /**
     * The heading line of a dataset whose split the registry cannot check (no checksum and no question count for the
     * file the paper used), when a run read {@code file} from it; empty when the registry can check it.
     */
    public static Optional<String> unverified(Recipe recipe, String dataset, String file) {
        if (dev.veracity.eval.data.Datasets.spec(dataset).downloads().isEmpty()) {
            return Optional.empty();
        }
        dev.veracity.eval.data.Download official = recipe.officialFile(dataset);
        return official.sha256() != null || official.questions() != null ? Optional.empty()
                : Optional.of(unverifiedLine(dataset, official.file(), file));
    }

    private static String unverifiedLine(String dataset, String official, String files) {
        return "UNVERIFIED SPLIT on " + dataset + ": the registry has no checksum or question count for " + official
                + ", so nothing tells whether " + files + " is the paper's split; its cells are graded as if it were";
    }

    /**
     * Why a cell is not comparable with the paper, in a few words, or null: its dataset's reason, or for a column
     * averaging others the first of theirs; the subset row's run counts for every cell of its dataset.
     */
    private static String cellReason(Recipe recipe, Recipe.Row row, Recipe.Column col,
                                     BiFunction<String, String, String> why) {
        if (!col.average().isEmpty()) {
            for (String id : col.average()) {
                String r = cellReason(recipe, row, recipe.column(id).orElseThrow(), why);
                if (r != null) {
                    return r;
                }
            }
            return null;
        }
        if (col.dataset() == null) {
            return null;
        }
        String r = why.apply(row.id(), col.dataset());
        if (r == null && recipe.subset() != null) {
            r = why.apply(recipe.subset().row(), col.dataset());
        }
        return r;
    }

    /**
     * Why the run of a row on a dataset is not over the paper's split (the short form for its cells), or null; the
     * long form goes to {@code headings}. Judged from the run's own record: its limit, its server (the simulator), its
     * data file's SHA-256 (or, for a split of the whole file without a checksum, its question count), a partial
     * summary, failed questions, questions it never asked, fewer answered than the split takes, and the questions at
     * once a recipe pins. A summary that does not record its slice ({@code questions}; written before it did) is judged
     * by the calling command's {@code everyRun} and {@code dataFiles} in place of the record's limit and count.
     */
    private static String reason(Recipe recipe, RunDir run, String everyRun, Map<String, DataFile> dataFiles, String row,
                                 String dataset, Headings headings) {
        Summary s = run.summary();
        boolean recorded = s.questions() != null;
        Recipe.Row r = recipe.rows().stream().filter(x -> x.id().equals(row)).findFirst().orElse(null);
        // what the split takes of this row: the row's own count where the paper ran fewer, else first N or sample N
        Integer takes = r != null && r.questions() != null ? r.questions() : recipe.split().size();
        int limit = s.limit() == null ? 0 : s.limit();
        if (recorded ? limit > 0 && (takes == null || limit < takes) : LIMIT.equals(everyRun)) {
            headings.shared(LIMIT, dataset, row);
            return LIMIT;
        }
        if (s.config() != null && SIMULATOR_SERVER.equals(s.config().llmBaseUrl()) || !recorded && SIMULATOR.equals(everyRun)) {
            headings.shared(SIMULATOR, dataset, row);
            return SIMULATOR;
        }
        DataFile given = dataFiles.get(dataset);
        String recordedSha = s.config() == null || s.config().dataSha256() == null ? "" : s.config().dataSha256();
        if (given != null && (!recorded || given.sha256().equalsIgnoreCase(recordedSha))) {
            return DATA_FILE; // it read the file the heading's line names (a run that does not record its slice: any)
        }
        dev.veracity.eval.data.Download official = dev.veracity.eval.data.Datasets.spec(dataset).downloads().isEmpty()
                ? null : recipe.officialFile(dataset);
        if (!recordedSha.isEmpty() && official != null && official.sha256() != null
                && !official.sha256().equalsIgnoreCase(recordedSha)) {
            headings.line("NOT COMPARABLE on " + dataset + ": row " + row + "'s run read " + run.data()
                    + ", whose SHA-256 is not the registry's for " + official.file()
                    + "; its cells are not checked against the paper's number");
            return DATA_FILE;
        }
        int questions = s.questions() == null ? 0 : s.questions();
        if (recorded && limit == 0 && recipe.split().size() == null && official != null && official.sha256() == null
                && official.questions() != null && questions != official.questions()) {
            headings.line("NOT COMPARABLE on " + dataset + ": row " + row + "'s run read " + run.data()
                    + ", " + questions + " questions, and the registry's " + official.file() + " has "
                    + official.questions() + "; its cells are not checked against the paper's number");
            return DATA_FILE;
        }
        if (run.partial() != null) {
            headings.line("NOT COMPARABLE on " + dataset + ": row " + row + "'s run is partial (" + run.partial()
                    + "); run it again to finish it");
            return PARTIAL;
        }
        int failed = s.failed() == null ? 0 : s.failed();
        if (failed > 0) {
            headings.line("NOT COMPARABLE on " + dataset + ": row " + row + "'s run has " + failed
                    + " failed question(s), left out of its scores; run it again to answer them");
            return failed + " failed";
        }
        int answered = run.n();
        if (recorded && answered + failed < questions) {
            headings.line("NOT COMPARABLE on " + dataset + ": row " + row + "'s run answered " + answered + " of its "
                    + questions + " questions (stopped" + (s.stopped() != null ? ": " + s.stopped() : "")
                    + "); run it again to finish it");
            return PARTIAL;
        }
        if (recorded && takes != null && answered < takes) {
            headings.line("NOT COMPARABLE on " + dataset + ": row " + row + "'s run answered the " + answered
                    + " questions " + run.data() + " gave it, the split takes " + takes + " ("
                    + (r != null && r.questions() != null ? "the paper's count for this row" : recipe.split().describe())
                    + "); its cells are not checked against the paper's number");
            return FEWER;
        }
        Integer atOnce = recipe.questionsAtOnce();
        if (atOnce != null && s.questionsAtOnce() != null && !s.questionsAtOnce().equals(atOnce)) {
            headings.line("NOT COMPARABLE on " + dataset + ": row " + row + "'s run answered "
                    + s.questionsAtOnce() + " questions at once, the recipe's times take " + atOnce
                    + " (a server that queues requests slows each); run it again into a new --out");
            return s.questionsAtOnce() + " at once";
        }
        if (official != null && official.sha256() == null && official.questions() == null) {
            headings.unverified(dataset, official.file(), run.data());
        }
        return null;
    }

    /** The questions of a run whose result lines satisfy the rule. */
    static Subset subset(RunDir run, SubsetRule rule) {
        Set<String> ids = new LinkedHashSet<>();
        Set<String> all = new LinkedHashSet<>();
        run.forEachResult(l -> {
            String id = l.id();
            if (id != null) {
                all.add(id);
                if (rule.test(l)) {
                    ids.add(id);
                }
            }
        });
        return new Subset(Collections.unmodifiableSet(ids), all.size());
    }

    /**
     * The recipe's subset on a dataset, when the recipe has one and its row has a run there.
     */
    public Optional<Subset> subset(String dataset) {
        return Optional.ofNullable(subsets.get(dataset));
    }

    private static Double ours(Recipe recipe, Recipe.Row row, Recipe.Column col, List<Double> earlier,
                               BiFunction<String, String, Optional<RunDir>> runs) {
        if (!col.average().isEmpty()) {
            double sum = 0;
            for (String id : col.average()) {
                int k = recipe.columns().indexOf(recipe.column(id).orElseThrow());
                Double v = earlier.get(k);
                if (v == null) {
                    return null;
                }
                sum += v;
            }
            return sum / col.average().size();
        }
        Optional<RunDir> run = runs.apply(row.id(), col.dataset());
        if (run.isEmpty()) {
            return null;
        }
        if (!col.where().isEmpty()) {
            Double v = over(run.get(), col, l -> true, new java.util.HashSet<>());
            return v == null ? null : v * col.scale();
        }
        Summary s = run.get().summary();
        Double v = switch (col.metric()) {
            case "judge" -> s.judge() == null ? null : s.judge().accuracy();
            default -> Recipes.FIGURES.contains(col.metric())
                    ? s.perQuestion(col.metric().substring(0, col.metric().length() - "_per_question".length()))
                    : s.metricsOrEmpty().get(col.metric());
        };
        return v != null ? v * col.scale() : null;
    }

    /**
     * A text field of a result line that a recipe's {@code where} names (a column over CRAG's question types), or null
     * when the line has none; the recipe names the field, so it is read from the line as written.
     */
    private static String field(ResultLine line, String name) {
        com.fasterxml.jackson.databind.JsonNode v = ResultsJson.tree(line).get(name);
        return v == null || v.isNull() ? null : v.asText();
    }

    /**
     * A metric (or one of its extras) re-scored over the result lines that {@code keep} and the column's {@code where}
     * accept, read from the run's file and folded one line at a time; the ids of those lines go to {@code matchedIds}.
     */
    private static Double over(RunDir run, Recipe.Column col, java.util.function.Predicate<ResultLine> keep,
                               Set<String> matchedIds) {
        int dot = col.metric().indexOf('.');
        Metric metric = Metrics.byName(dot < 0 ? col.metric() : col.metric().substring(0, dot));
        Metric.Tally tally = metric.tally();
        int[] matched = {0};
        run.forEachResult(l -> {
            boolean match = keep.test(l)
                    && col.where().entrySet().stream().allMatch(e -> e.getValue().equals(field(l, e.getKey())));
            if (match) {
                tally.add(dev.veracity.eval.metrics.LineScores.of(metric, l));
                matched[0]++;
                matchedIds.add(l.id());
            }
        });
        if (matched[0] == 0) {
            return null;
        }
        Aggregate a = tally.result();
        if (a.n() == 0) {
            return null;
        }
        if (dot < 0) {
            return a.mean();
        }
        Number extra = a.extras().get(col.metric().substring(dot + 1));
        return extra == null ? null : extra.doubleValue();
    }

    private static String status(Recipe recipe, Recipe.Row row, Recipe.Column col, PaperValue p, Double v,
                                 String notComparable) {
        if (row.notRun() != null) {
            return "not run: " + row.notRun();
        }
        if (col.notRun() != null) {
            return "not run: " + col.notRun();
        }
        if (v == null) {
            return "no result";
        }
        if (p == null) {
            return "paper has no number";
        }
        if (notComparable != null) {
            return "not comparable (" + notComparable + ")";
        }
        double off = Math.abs(v - p.center()) - p.halfWidth();
        return off <= recipe.tolerance() + 1e-9 ? "within ±" + fmt(recipe.tolerance()) : "OUTSIDE ±" + fmt(recipe.tolerance());
    }

    public List<Cell> cells() {
        return cells;
    }

    /** Whether every computed cell is over the paper's split (no --limit, simulator, other data file or failures). */
    public boolean comparable() {
        return cells.stream().noneMatch(c -> c.status().startsWith("not comparable"));
    }

    /** The heading, one line per cell, and a count of the verdicts, at their full width. */
    public String text() {
        return text(dev.veracity.eval.report.TextTable.UNLIMITED);
    }

    /**
     * The heading, one line per cell, and a count of the verdicts, fitted to {@code width}: the paragraphs wrapped,
     * the status wrapped in its column, the paper's model abbreviated.
     */
    public String text(int width) {
        StringBuilder out = new StringBuilder();
        out.append("Reproduction ").append(recipe.name()).append(": ").append(recipe.title()).append('\n');
        out.append("Paper: ").append(recipe.paper().file()).append(", ").append(recipe.paper().table())
                .append("; split: ").append(recipe.split().describe()).append("; tolerance ±")
                .append(fmt(recipe.tolerance())).append('\n');
        out.append("Our model: ").append(ourModel).append('\n');
        if (recipe.questionsAtOnce() != null) {
            out.append("Questions at once: ").append(recipe.questionsAtOnce()).append(" per run (the recipe's: its times"
                    + " per question grow when a server queues the requests of several questions)\n");
        }
        if (LIMIT.equals(everyRun)) {
            out.append("NOT COMPARABLE: these runs used --limit, fewer questions than the paper's split; no cell is"
                    + " checked against the paper's number\n");
        } else if (everyRun != null) {
            out.append("NOT COMPARABLE: these runs are not the paper's setting (").append(everyRun)
                    .append("); no cell is checked against the paper's number\n");
        }
        notComparable.forEach(l -> out.append(l).append('\n'));
        if (plumbing != null) {
            out.append(plumbing).append('\n');
        }
        if (recipe.subset() != null) {
            out.append("SUBSET: every cell is over the questions where row ").append(recipe.subset().row())
                    .append("'s run has ").append(recipe.subset().where()).append(" (")
                    .append(recipe.subset().rule().description()).append("):");
            List<String> sizes = new ArrayList<>();
            for (String d : recipe.datasets()) {
                Subset s = subsets.get(d);
                sizes.add(" " + d + " " + (s == null ? "not run (no run of " + recipe.subset().row() + ")"
                        : s.ids().size() + " of " + s.of() + " questions"));
            }
            out.append(String.join(",", sizes)).append('\n');
        }
        String heading = out.toString();
        out.setLength(0);
        heading.lines().forEach(l -> out.append(dev.veracity.eval.report.TextTable.wrap(l, width, "", "  ")));
        dev.veracity.eval.report.TextTable table = new dev.veracity.eval.report.TextTable(List.of(
                dev.veracity.eval.report.TextTable.Column.text("row", 8, 30),
                dev.veracity.eval.report.TextTable.Column.text("paper model", 8, 20),
                dev.veracity.eval.report.TextTable.Column.text("column", 8, 25),
                dev.veracity.eval.report.TextTable.Column.figure("paper"),
                dev.veracity.eval.report.TextTable.Column.figure("ours"),
                dev.veracity.eval.report.TextTable.Column.figure("diff"),
                dev.veracity.eval.report.TextTable.Column.text("status", 16, 10).wrapped(16)));
        for (Cell c : cells) {
            String diff = c.paper() == null || c.ours() == null ? "-"
                    : (c.paper().truncated() ? "~" : "") + String.format(Locale.ROOT, "%+.2f", c.ours() - c.paper().center());
            table.row(List.of(c.row().id(), c.row().model(), c.column().label(),
                    c.paper() == null ? "-" : c.paper().display(), c.ours() == null ? "-" : fmt2(c.ours()), diff,
                    c.status()));
        }
        out.append(table.render(width).text());
        long within = cells.stream().filter(c -> c.status().startsWith("within")).count();
        long outside = cells.stream().filter(c -> c.status().startsWith("OUTSIDE")).count();
        long notRun = cells.stream().filter(c -> c.status().startsWith("not run") || c.status().startsWith("no result")).count();
        long apart = cells.stream().filter(c -> c.status().startsWith("not comparable")).count();
        out.append(dev.veracity.eval.report.TextTable.wrap(LIMIT.equals(everyRun)
                ? "not comparable: " + (cells.size() - notRun) + " cells computed on fewer questions than the paper's, "
                + notRun + " not run"
                : within + " cells within the tolerance, " + outside + " outside, "
                + (apart > 0 ? apart + " not comparable, " : "") + notRun + " not run", width));
        return out.toString();
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    private static String fmt2(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}
