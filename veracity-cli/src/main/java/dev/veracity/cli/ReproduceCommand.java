package dev.veracity.cli;

import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.data.DatasetCache;
import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.data.Download;
import dev.veracity.eval.recipe.Recipe;
import dev.veracity.eval.recipe.RecipeTable;
import dev.veracity.eval.recipe.Recipes;
import dev.veracity.eval.report.RunDir;
import dev.veracity.eval.run.EvalJob;
import dev.veracity.eval.run.EvalJobRunner;
import dev.veracity.eval.run.QuestionSample;
import dev.veracity.eval.run.RunConfig;
import dev.veracity.method.Capability;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.Methods;
import dev.veracity.sim.SimServer;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code ./veracity reproduce NAME}: a paper table's recipe run through {@code eval}, one resumable run folder per
 * row and dataset ({@code --out/NAME/ROW/DATASET}), then our numbers beside the paper's, cell by cell. Every
 * dataset file, index and option is checked before the first run; {@code --limit} runs are labelled not comparable.
 */
@Command(name = "reproduce", mixinStandardHelpOptions = true,
        description = {"Run a paper table's recipe and print our numbers beside the paper's, cell by cell, with the"
                + " difference and, on the paper's whole split, whether each is within the recipe's tolerance.",
                "Killed and started again with the same --out, it finishes only the missing questions."})
final class ReproduceCommand implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "NAME", description = "A recipe (see --list).")
    String name;

    @Option(names = "--list", description = "List the recipes and what each needs (datasets with their download URL"
            + " and checksum, model, index), then stop.")
    boolean list;

    @Option(names = "--limit", defaultValue = "0", paramLabel = "N",
            description = "Only the first N questions of the paper's selection per run (0 = the paper's split);"
                    + " such a run is not comparable with the paper and says so.")
    int limit;

    @Option(names = "--out", defaultValue = ".veracity/reproduce", paramLabel = "DIR",
            description = "Run folders go to DIR/NAME/ROW/DATASET (default ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--rows", split = ",", paramLabel = "ID", description = "Only these rows (default: every row that runs here).")
    List<String> rows = new ArrayList<>();

    @Option(names = "--datasets", split = ",", paramLabel = "NAME", description = "Only these datasets' columns (default:"
            + " every dataset of the recipe); the others need no file and show the runs an earlier reproduce left.")
    List<String> datasets = new ArrayList<>();

    @Option(names = "--data", paramLabel = "DATASET=FILE",
            description = "The file for a dataset (default: the registry's official file in the dataset cache,"
                    + " ./veracity datasets fetch).")
    Map<String, Path> data = new LinkedHashMap<>();

    @Option(names = "--judge-model", paramLabel = "NAME", description = "Model of the recipe's judge (default: --model).")
    String judgeModel;

    @Option(names = "--simulator", description = "Against the built-in simulator's extractive reader: checks the"
            + " plumbing (datasets, methods, run folders, table), measures nothing about any model.")
    boolean simulator;

    @Option(names = "--force", description = "Start each run folder over instead of refusing one of another configuration.")
    boolean force;

    @Mixin
    ModelOptions model;

    @Mixin
    RetrievalOptions retrieval;

    @Mixin
    ProxyOptions proxy;

    @Spec
    CommandSpec spec;

    /** One eval run of the plan. */
    private record Run(Recipe.Row row, String dataset, Path file, Path dir, int limit, QuestionSample sample, String documents,
                       String note) {
    }

    /**
     * The plan: its runs, per dataset whose file is not the paper's split that file, and per dataset whose split the
     * registry cannot check the line that says so.
     */
    private record Plan(List<Run> runs, Map<String, RecipeTable.DataFile> notThePapers, Map<String, String> unverified) {
    }

    @Override
    public Integer call() throws Exception {
        // System.out, as eval's progress lines: the two interleave in order
        PrintWriter w = new PrintWriter(System.out, true);
        Recipes recipes = new Recipes(Methods::spec);
        DatasetCache cache = DatasetCache.fromEnvironment();
        if (list) {
            list(w, recipes, cache);
            return 0;
        }
        if (name == null) {
            throw new IllegalArgumentException("name a recipe (./veracity reproduce --list shows them)");
        }
        if (limit < 0) {
            throw new IllegalArgumentException("--limit must be >= 0, was " + limit);
        }
        Recipe recipe = recipes.byName(name);
        Plan planned = plan(recipe, cache);
        List<Run> plan = planned.runs();
        // said before any run: a file that is not the paper's split gives numbers no cell checks against the paper's,
        // and one the registry cannot check gives numbers graded as if it were (when they are graded at all)
        planned.notThePapers().forEach((d, file) -> w.println("NOT COMPARABLE on " + d + ": " + file.why()));
        if (limit == 0 && !simulator) {
            planned.unverified().values().forEach(w::println);
        }
        // no rules and no latency: the built-in extractive reader answers every method's prompts at once
        SimServer sim = simulator ? SimServer.start(SimCommand.simulator().latency(dev.veracity.sim.LatencyModel.ofMillis(0, 0)).build())
                : null;
        String ourModel;
        int failed = 0;
        try {
            VeracityConfig base = model.resolve();
            VeracityConfig runs = sim != null ? base.withServer(sim.baseUrl(), sim.config().defaultModel()) : base;
            ourModel = sim != null ? sim.config().defaultModel() + " (simulator)" : base.model();
            boolean preflight = true;
            CliJobEnvironment env = new CliJobEnvironment(proxy, j -> EvalCommand.watch(j, "run the same command again"));
            int width = Terminal.columns();
            // a line per run finished: how many of the plan's runs are done, at what rate, and the time left; to
            // standard error with every other progress (stdout keeps the runs' tables and the recipe's table)
            TaskProgress done = TaskProgress.lines("reproduce " + recipe.name(), "runs", plan.size(), System.err,
                    System::nanoTime, width).everyStep();
            done.stepTo(0);
            for (Run r : plan) {
                w.print(dev.veracity.eval.report.TextTable.wrap(String.format("== %s on %s (%s)%s", r.row().id(),
                        r.dataset(), r.row().model(), r.note().isEmpty() ? "" : ": " + r.note()), width, "", "   "));
                w.flush();
                EvalJob job = job(recipe, r, runs, sim != null, preflight);
                failed += EvalCommand.finish(EvalJobRunner.run(job, env), job.out()) == 0 ? 0 : 1;
                preflight = false; // one check of the server per reproduce
                done.stepTo(done.done() + 1);
            }
        } finally {
            if (sim != null) {
                sim.close();
            }
        }
        Map<String, RunDir> loaded = new LinkedHashMap<>();
        for (Run r : plan) {
            if (Files.isRegularFile(r.dir().resolve("summary.json"))) {
                loaded.put(r.row().id() + "\u0000" + r.dataset(), RunDir.load(r.dir()));
            }
        }
        // a row the user did not select shows its folder from an earlier reproduce, when there is one
        for (Recipe.Row row : recipe.runnableRows()) {
            for (String d : recipe.datasets()) {
                Path dir = runDir(recipe, row, d);
                loaded.computeIfAbsent(row.id() + "\u0000" + d, k -> Files.isRegularFile(dir.resolve("summary.json"))
                        ? RunDir.load(dir) : null);
            }
        }
        RecipeTable table = RecipeTable.of(recipe, (row, d) -> Optional.ofNullable(loaded.get(row + "\u0000" + d)),
                limit > 0 ? RecipeTable.LIMIT : simulator ? RecipeTable.SIMULATOR : null, planned.notThePapers(),
                ourModel, simulator ? "SIMULATOR: the built-in extractive reader answered;"
                        + " these numbers check the plumbing only and say nothing about any model" : null);
        w.println();
        w.print(table.text(Terminal.columns()));
        w.println("Run folders: " + out.resolve(recipe.name()) + " (./veracity compare, ./veracity report)");
        w.flush();
        return failed == 0 ? 0 : 1;
    }

    private Path runDir(Recipe recipe, Recipe.Row row, String dataset) {
        return out.resolve(recipe.name()).resolve(row.id()).resolve(dataset);
    }

    /** Every run of the recipe, each checked (file, index, sample) before any of them starts. */
    private Plan plan(Recipe recipe, DatasetCache cache) {
        List<String> problems = new ArrayList<>();
        for (String d : datasets) {
            if (!recipe.datasets().contains(d)) {
                problems.add("--datasets: " + recipe.name() + " has no column of '" + d + "'; its datasets: "
                        + String.join(", ", recipe.datasets()));
            }
        }
        List<String> selected = recipe.datasets().stream().filter(d -> datasets.isEmpty() || datasets.contains(d)).toList();
        List<String> known = recipe.rows().stream().map(Recipe.Row::id).toList();
        for (String r : rows) {
            if (!known.contains(r)) {
                problems.add("--rows: no row '" + r + "' in " + recipe.name() + "; rows: " + String.join(", ", known));
            } else if (recipe.rows().stream().anyMatch(x -> x.id().equals(r) && x.notRun() != null)) {
                problems.add("--rows: row '" + r + "' is not run here: " + recipe.rows().stream()
                        .filter(x -> x.id().equals(r)).findFirst().orElseThrow().notRun());
            }
        }
        for (String d : data.keySet()) {
            if (!recipe.datasets().contains(d)) {
                problems.add("--data " + d + ": " + recipe.name() + " runs " + String.join(", ", recipe.datasets()));
            }
        }
        Map<String, Path> files = new LinkedHashMap<>();
        for (String d : selected) {
            Path f = data.get(d);
            if (f != null && !Files.isRegularFile(f)) {
                problems.add("--data " + d + "=" + f + ": no such file");
            } else if (f == null) {
                Download want = recipe.officialFile(d);
                Optional<Path> found = cache.find(Datasets.spec(d), want);
                if (found.isEmpty()) {
                    problems.add("dataset " + d + ": " + want.file() + " is not in " + cache.root().resolve(d)
                            + (want.url() != null ? "; ./veracity datasets fetch " + d : "; get it from " + want.page())
                            + ", or pass --data " + d + "=FILE");
                } else {
                    f = found.get();
                }
            }
            files.put(d, f);
        }
        List<Run> plan = new ArrayList<>();
        for (Recipe.Row row : recipe.runnableRows()) {
            if (!rows.isEmpty() && !rows.contains(row.id())) {
                continue;
            }
            QaMethod m = Methods.byName(row.method());
            for (String d : selected) {
                String docs = recipe.documentsFor(d);
                boolean needsDocs = m.needs(Capability.DOCUMENTS) || m.needs(Capability.RETRIEVER);
                if (docs.equals("index") && needsDocs && retrieval.index == null) {
                    problems.add(row.id() + " on " + d + ": the paper retrieves from an index; build one with"
                            + " ./veracity index and pass --index DIR");
                }
                Path f = files.get(d);
                if (docs.equals("pages") && m.needs(Capability.PAGES) && retrieval.pages == null && f != null && !hasParagraphs(d, f)) {
                    problems.add(row.id() + " on " + d + ": the agents search a Wikipedia and these questions come"
                            + " without paragraphs; build a page store (./veracity index --pages) and pass --pages DIR");
                }
                int size = recipe.split().size() == null ? 0 : recipe.split().size();
                int rowSize = row.questions() == null ? size : row.questions();
                int runLimit = limit == 0 ? rowSize : rowSize == 0 ? limit : Math.min(limit, rowSize);
                QuestionSample sample = recipe.split().sampleFor(d);
                String note = "";
                if (sample != null && limit > 0 && f != null && questions(d, f) < Math.max(sample.n(), sample.range())) {
                    // a --limit run is not comparable anyway: say which questions it takes
                    note = "the file has fewer questions than the paper's sample needs; the first " + runLimit
                            + " questions of the file instead";
                    sample = null;
                }
                plan.add(new Run(row, d, f, runDir(recipe, row, d), runLimit, sample, docs, note));
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n" + spec.qualifiedName() + ": ", problems.stream().distinct().toList()));
        }
        Map<String, RecipeTable.DataFile> notThePapers = new LinkedHashMap<>();
        Map<String, String> unverified = new LinkedHashMap<>();
        files.forEach((d, f) -> {
            notThePapersSplit(recipe, d, f).ifPresent(why -> notThePapers.put(d, new RecipeTable.DataFile(sha256(f), why)));
            RecipeTable.unverified(recipe, d, f.toString()).ifPresent(line -> unverified.put(d, line));
        });
        return new Plan(plan, notThePapers, unverified);
    }

    /**
     * Why a dataset's file is not the paper's split, if it is not: its SHA-256 is not the registry's for the file the
     * paper used; or, where the registry has no checksum, its question count is not the registry's for a split that
     * draws from the whole file (every question, or a sample of them all), or it has fewer questions than the split
     * takes.
     */
    private static Optional<String> notThePapersSplit(Recipe recipe, String dataset, Path file) {
        Download official = recipe.officialFile(dataset);
        if (official.sha256() != null) {
            String sha = sha256(file);
            return sha.equalsIgnoreCase(official.sha256()) ? Optional.empty()
                    : Optional.of(file + " is not the paper's split: its SHA-256 " + sha.substring(0, 12)
                    + "... is not the registry's " + official.sha256().substring(0, 12) + "... for " + official.file());
        }
        long have = -1;
        if (official.questions() != null && recipe.drawsFromWholeFile(dataset)) {
            have = questions(dataset, file);
            if (have != official.questions()) {
                return Optional.of(file + " is not the paper's split: it has " + have + " questions, the registry's "
                        + official.file() + " has " + official.questions());
            }
        }
        Integer needed = recipe.questionsNeeded(dataset);
        if (needed != null) {
            have = have >= 0 ? have : questions(dataset, file);
            if (have < needed) {
                return Optional.of(file + " is not the paper's split: it has " + have + " questions, the split takes "
                        + needed + " (" + recipe.split().describe() + ")");
            }
        }
        return Optional.empty();
    }

    private static String sha256(Path file) {
        try {
            return RunConfig.sha256(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("reading " + file + ": " + e.getMessage(), e);
        }
    }

    private static boolean hasParagraphs(String dataset, Path file) {
        try (var items = Datasets.stream(dataset, file)) {
            return items.findFirst().map(i -> !i.documents().isEmpty()).orElse(false);
        }
    }

    private static long questions(String dataset, Path file) {
        try (var items = Datasets.stream(dataset, file)) {
            return items.count();
        }
    }

    /**
     * The eval job of one run: the recipe's method, options, metrics, sample, judge and documents, the user's model,
     * retrieval and proxy flags, except the index and pages where this dataset's documents do not come from them.
     */
    EvalJob job(Recipe recipe, Run r, VeracityConfig runs, boolean simulated, boolean preflight) {
        QaMethod m = Methods.byName(r.row().method());
        // the dataset's official metrics and those the recipe's columns read
        java.util.Set<String> metrics = new java.util.LinkedHashSet<>(Datasets.spec(r.dataset()).metrics());
        for (Recipe.Column c : recipe.columns()) {
            if (r.dataset().equals(c.dataset()) && !c.metric().equals("judge") && !Recipes.FIGURES.contains(c.metric())) {
                metrics.add(c.metric().contains(".") ? c.metric().substring(0, c.metric().indexOf('.')) : c.metric());
            }
        }
        boolean retrieves = r.documents().equals("index") && (m.needs(Capability.DOCUMENTS) || m.needs(Capability.RETRIEVER));
        boolean readsPages = r.documents().equals("pages") && m.needs(Capability.PAGES);
        EvalJob.Builder job = EvalJob.builder(m, r.dataset(), r.file(), r.dir()).options(r.row().options())
                .limit(r.limit()).metrics(List.copyOf(metrics)).sample(r.sample())
                // a column that depends on it (a time per question): the recipe's, whatever --concurrency allows
                .questionsAtOnce(recipe.questionsAtOnce())
                .model(runs).documents(retrieval.documents(retrieves, readsPages)).preflight(preflight).force(force)
                .serverLabel(simulated ? RecipeTable.SIMULATOR_SERVER : null);
        if (recipe.judge() != null) {
            job.judge(recipe.judge().name()).judgeSamples(recipe.judge().samples()).judgeModel(judgeModel);
        }
        return job.build();
    }

    private static void list(PrintWriter w, Recipes recipes, DatasetCache cache) {
        w.println("Recipes (./veracity reproduce NAME); datasets are looked for in " + cache.root()
                + " (" + DatasetCache.ENV + " moves it):");
        for (Recipe r : recipes.all()) {
            w.println();
            w.println(r.name() + "  " + r.title());
            w.printf("  rows: %d, %d run here; split: %s%n", r.rows().size(), r.runnableRows().size(), r.split().describe());
            if (r.subset() != null) {
                w.println("  subset: every row scored on the questions where row " + r.subset().row() + "'s run has "
                        + r.subset().where() + " (" + r.subset().rule().description() + ")");
            }
            r.models().forEach((role, m) -> w.println("  model " + role + ": " + m));
            if (r.questionsAtOnce() != null) {
                w.println("  questions at once: " + r.questionsAtOnce() + " per run (its times per question depend on it)");
            }
            if (r.judge() != null) {
                w.println("  judge: " + r.judge().name() + " (paper: " + r.judge().model() + ")");
            }
            for (String d : r.datasets()) {
                Download f = r.officialFile(d);
                String where = cache.find(Datasets.spec(d), f).map(p -> "present: " + p).orElse("missing");
                w.println("  dataset " + d + ": " + f.file() + ", " + (f.url() != null ? f.url() : "no direct URL, from " + f.page())
                        + ", " + f.checksumText() + (f.questions() != null ? ", " + f.questions() + " questions" : "")
                        + " [" + where + "]; documents: " + r.documentsFor(d));
            }
            r.needs().forEach((k, v) -> w.println("  needs " + k + ": " + v));
        }
        w.flush();
    }
}
