package dev.veracity.eval.recipe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.judge.Judges;
import dev.veracity.eval.metrics.Metrics;
import dev.veracity.method.MethodSpec;
import dev.veracity.plugin.Registry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The recipes, bundled ({@link BuiltInRecipes}) or a plug-in's ({@link RecipeProvider}), read with Jackson's YAML data
 * format into {@link Recipe}s. Every reference is checked before anything runs: an unknown
 * method, dataset, metric, judge or option, a missing field, a paper row with the wrong number of values; all
 * problems are reported at once, one line each ({@code recipe NAME: rows[3].method: unknown method 'x'}).
 */
public final class Recipes {

    /** The class-path folder of the bundled recipes. */
    public static final String FOLDER = BuiltInRecipes.FOLDER;
    /** Summary figures a column may report besides the registered metrics. */
    public static final List<String> FIGURES = List.of("calls_per_question", "samples_per_question",
            "prompt_tokens_per_question", "completion_tokens_per_question", "wall_ms_per_question",
            "model_ms_per_question");
    /** Where runs take their documents from. */
    public static final List<String> DOCUMENTS = List.of("dataset", "index", "pages", "none");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Registry<RecipeProvider, RecipeProvider.Entry> REGISTRY = new Registry<>(RecipeProvider.class,
            RecipeProvider::recipes, RecipeProvider.Entry::name, "recipe");

    private final Function<String, MethodSpec> methods;

    /**
     * @param methods the method registry: a name's declaration, an IllegalArgumentException for an unknown name
     *                (veracity-eval does not depend on the methods module; the CLI passes {@code Methods::spec})
     */
    public Recipes(Function<String, MethodSpec> methods) {
        this.methods = methods;
    }

    /** The recipes' names, in listing order: the bundled ones, then the plug-ins'. */
    public static List<String> names() {
        return List.copyOf(REGISTRY.byName().keySet());
    }

    /** Every recipe, checked. */
    public List<Recipe> all() {
        return names().stream().map(this::byName).toList();
    }

    /** The recipe of that name, checked; an unknown name lists the known ones. */
    public Recipe byName(String name) {
        if (!REGISTRY.byName().containsKey(name)) {
            throw new IllegalArgumentException("unknown recipe '" + name + "'; "
                    + REGISTRY.didYouMean(name) + "known: " + String.join(", ", names())
                    + " (./veracity reproduce --list)");
        }
        return parse(name, text(name));
    }

    /** The raw text of a recipe (null for an unknown name). */
    public static String text(String name) {
        RecipeProvider.Entry e = REGISTRY.byName().get(name);
        return e == null ? null : e.yaml();
    }

    /**
     * Reads and checks a recipe's YAML.
     *
     * @throws RecipeException listing every problem, one line each
     */
    public Recipe parse(String name, String yaml) {
        if (yaml == null) {
            throw new RecipeException(name, List.of("no such recipe file"));
        }
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr();
            throw new RecipeException(name, List.of("not valid YAML" + where + ": " + e.getOriginalMessage()));
        }
        Reader r = new Reader(name);
        Recipe recipe = r.recipe(root == null ? YAML.createObjectNode() : root);
        if (!r.errors.isEmpty()) {
            throw new RecipeException(name, r.errors);
        }
        return recipe;
    }

    /** Reads fields, collecting problems instead of stopping at the first. */
    private final class Reader {
        final String name;
        final List<String> errors = new ArrayList<>();

        Reader(String name) {
            this.name = name;
        }

        void error(String path, String problem) {
            errors.add(path + ": " + problem);
        }

        void only(JsonNode n, String path, String... keys) {
            Set<String> allowed = Set.of(keys);
            n.fieldNames().forEachRemaining(k -> {
                if (!allowed.contains(k)) {
                    error(path.isEmpty() ? k : path + "." + k, "unknown field (known: " + String.join(", ", keys) + ")");
                }
            });
        }

        String text(JsonNode n, String key, String path, boolean required) {
            JsonNode v = n.get(key);
            if (v == null || v.isNull()) {
                if (required) {
                    error(path + key, "missing field");
                }
                return null;
            }
            if (!v.isValueNode()) {
                error(path + key, "must be a single value");
                return null;
            }
            return v.asText();
        }

        Integer integer(JsonNode n, String key, String path) {
            JsonNode v = n.get(key);
            if (v == null || v.isNull()) {
                return null;
            }
            if (!v.isIntegralNumber() || v.asLong() < 1 || v.asLong() > Integer.MAX_VALUE) {
                error(path + key, "must be a whole number >= 1, was " + v.asText());
                return null;
            }
            return v.asInt();
        }

        Map<String, String> strings(JsonNode n, String key, String path) {
            Map<String, String> out = new LinkedHashMap<>();
            JsonNode v = n.get(key);
            if (v == null || v.isNull()) {
                return out;
            }
            if (!v.isObject()) {
                error(path + key, "must be a map");
                return out;
            }
            v.properties().forEach(e -> {
                if (e.getValue().isValueNode() && !e.getValue().isNull()) {
                    out.put(e.getKey(), e.getValue().asText());
                } else {
                    error(path + key + "." + e.getKey(), "must be a single value");
                }
            });
            return out;
        }

        List<String> list(JsonNode n, String key, String path) {
            JsonNode v = n.get(key);
            List<String> out = new ArrayList<>();
            if (v == null || v.isNull()) {
                return out;
            }
            if (!v.isArray()) {
                error(path + key, "must be a list");
                return out;
            }
            v.forEach(e -> out.add(e.isNull() ? null : e.asText()));
            return out;
        }

        Recipe recipe(JsonNode root) {
            only(root, "", "name", "title", "paper", "split", "models", "sampling", "judge", "documents", "files",
                    "tolerance", "needs", "notes", "columns", "rows", "subset", "questions_at_once");
            String n = text(root, "name", "", true);
            if (n != null && !n.equals(name)) {
                error("name", "is '" + n + "' but the file is " + name + ".yaml");
            }
            String title = text(root, "title", "", true);
            Recipe.Paper paper = paper(root.path("paper"));
            Recipe.Split split = split(root.path("split"));
            Map<String, String> models = strings(root, "models", "");
            if (models.isEmpty()) {
                error("models", "missing field (the paper's model roles)");
            }
            String sampling = text(root, "sampling", "", true);
            Recipe.Judge judge = root.hasNonNull("judge") ? judge(root.get("judge")) : null;
            Map<String, String> documents = new LinkedHashMap<>();
            JsonNode docs = root.get("documents");
            if (docs != null && docs.isValueNode()) {
                documents.put("*", docs.asText());
            } else {
                documents.putAll(strings(root, "documents", ""));
                documents.keySet().forEach(d -> datasetName(d, "documents." + d));
            }
            if (documents.isEmpty()) {
                error("documents", "missing field (" + String.join(", ", DOCUMENTS) + ", or a map per dataset)");
            }
            documents.forEach((d, v) -> {
                if (!DOCUMENTS.contains(v)) {
                    error("documents" + (d.equals("*") ? "" : "." + d), "'" + v + "' is not one of " + DOCUMENTS);
                }
            });
            Map<String, String> files = strings(root, "files", "");
            files.forEach((d, f) -> {
                datasetName(d, "files." + d);
                try {
                    if (Datasets.spec(d).downloads().stream().noneMatch(x -> x.file().equals(f))) {
                        error("files." + d, "'" + f + "' is not one of the registry's files for " + d);
                    }
                } catch (IllegalArgumentException e) {
                    // reported by datasetName
                }
            });
            double tolerance = 0;
            JsonNode tol = root.get("tolerance");
            if (tol == null || !tol.isNumber() || tol.asDouble() < 0) {
                error("tolerance", tol == null ? "missing field" : "must be a number >= 0");
            } else {
                tolerance = tol.asDouble();
            }
            Map<String, String> needs = strings(root, "needs", "");
            List<String> notes = list(root, "notes", "");
            List<Recipe.Column> columns = columns(root.path("columns"));
            List<Recipe.Row> rows = rows(root.path("rows"), columns, judge);
            if (paper != null && "runs".equals(paper.layout())) {
                Set<String> rowIds = new HashSet<>(rows.stream().map(Recipe.Row::id).toList());
                Set<String> colIds = new HashSet<>(columns.stream().map(Recipe.Column::id).toList());
                for (List<String> run : paper.runs()) {
                    for (String cell : run) {
                        String[] rc = cell == null ? new String[0] : cell.split(":", 2);
                        if (rc.length != 2 || !rowIds.contains(rc[0]) || !colIds.contains(rc[1])) {
                            error("paper.runs", "'" + cell + "' is not ROW:COLUMN of this recipe");
                        }
                    }
                }
            }
            Recipe.Subset subset = root.hasNonNull("subset") ? subset(root.get("subset"), columns, rows) : null;
            Integer questionsAtOnce = integer(root, "questions_at_once", "");
            return new Recipe(name, title, paper, split, models, sampling, judge, documents, files, tolerance, needs,
                    notes, columns, rows, subset, questionsAtOnce);
        }

        /** {@code subset: {row: ROW, where: RULE}}: a row of this recipe that runs here, a known rule, metric columns. */
        Recipe.Subset subset(JsonNode s, List<Recipe.Column> columns, List<Recipe.Row> rows) {
            if (!s.isObject()) {
                error("subset", "must be a map {row: ROW, where: RULE}");
                return null;
            }
            only(s, "subset", "row", "where");
            String row = text(s, "row", "subset.", true);
            String where = text(s, "where", "subset.", true);
            if (row != null) {
                List<String> ids = rows.stream().map(Recipe.Row::id).toList();
                Recipe.Row r = rows.stream().filter(x -> row.equals(x.id())).findFirst().orElse(null);
                if (r == null) {
                    error("subset.row", "no row '" + row + "' in this recipe; rows: " + String.join(", ", ids));
                } else if (r.notRun() != null) {
                    error("subset.row", "row '" + row + "' is not run here, so it cannot pick the questions");
                }
            }
            if (where != null && SubsetRule.byId(where).isEmpty()) {
                error("subset.where", "unknown rule '" + where + "'; known: " + String.join(", ", SubsetRule.ids()));
            }
            for (int i = 0; i < columns.size(); i++) {
                String metric = columns.get(i).metric();
                if (metric != null && (metric.equals("judge") || FIGURES.contains(metric))) {
                    error("columns[" + i + "].metric", "'" + metric + "' is a run's summary figure and cannot be computed"
                            + " over the recipe's subset (only a registered metric can)");
                }
            }
            return new Recipe.Subset(row, where);
        }

        Recipe.Paper paper(JsonNode p) {
            if (p.isMissingNode() || p.isNull()) {
                error("paper", "missing field");
                return null;
            }
            only(p, "paper", "file", "table", "anchor", "end", "layout", "runs");
            String layout = text(p, "layout", "paper.", true);
            if (layout != null && !List.of("rows", "columns", "runs").contains(layout)) {
                error("paper.layout", "'" + layout + "' is not one of rows, columns, runs");
            }
            List<List<String>> runs = new ArrayList<>();
            p.path("runs").forEach(run -> {
                List<String> cells = new ArrayList<>();
                run.forEach(c -> cells.add(c.asText()));
                runs.add(cells);
            });
            if ("runs".equals(layout) && runs.isEmpty()) {
                error("paper.runs", "missing field (layout runs lists the cell sequences)");
            }
            return new Recipe.Paper(text(p, "file", "paper.", true), text(p, "table", "paper.", true),
                    text(p, "anchor", "paper.", true), text(p, "end", "paper.", false), layout, runs);
        }

        Recipe.Split split(JsonNode s) {
            if (s.isMissingNode() || s.isNull()) {
                error("split", "missing field");
                return new Recipe.Split(null, null, null, Map.of(), "");
            }
            only(s, "split", "first", "sample", "seed", "range", "all", "note");
            Integer first = integer(s, "first", "split.");
            Integer sample = integer(s, "sample", "split.");
            boolean all = s.path("all").asBoolean(false);
            if ((first != null ? 1 : 0) + (sample != null ? 1 : 0) + (all ? 1 : 0) != 1) {
                error("split", "give exactly one of first: N, sample: N (with seed) or all: true");
            }
            Long seed = null;
            if (sample != null) {
                JsonNode sd = s.get("seed");
                if (sd == null || !sd.isIntegralNumber() || sd.asLong() < 0) {
                    error("split.seed", "a sample needs a seed >= 0");
                } else {
                    seed = sd.asLong();
                }
            }
            Map<String, Integer> range = new LinkedHashMap<>();
            s.path("range").properties().forEach(e -> {
                datasetName(e.getKey(), "split.range." + e.getKey());
                range.put(e.getKey(), e.getValue().asInt());
            });
            String note = text(s, "note", "split.", true);
            return new Recipe.Split(first, sample, seed, range, note);
        }

        Recipe.Judge judge(JsonNode j) {
            only(j, "judge", "name", "samples", "model");
            String n = text(j, "name", "judge.", true);
            if (n != null) {
                try {
                    Judges.requireKnown(n);
                } catch (IllegalArgumentException e) {
                    error("judge.name", e.getMessage());
                }
            }
            Integer samples = integer(j, "samples", "judge.");
            return new Recipe.Judge(n, samples == null ? 1 : samples, text(j, "model", "judge.", true));
        }

        void datasetName(String dataset, String path) {
            try {
                if (!Datasets.spec(dataset).name().equals(dataset)) {
                    error(path, "use the dataset's registered name " + Datasets.spec(dataset).name() + ", not the alias");
                }
            } catch (IllegalArgumentException e) {
                error(path, e.getMessage());
            }
        }

        List<Recipe.Column> columns(JsonNode cs) {
            List<Recipe.Column> out = new ArrayList<>();
            if (!cs.isArray() || cs.isEmpty()) {
                error("columns", "missing field (a list of columns)");
                return out;
            }
            Set<String> ids = new HashSet<>();
            for (int i = 0; i < cs.size(); i++) {
                JsonNode c = cs.get(i);
                String path = "columns[" + i + "].";
                only(c, "columns[" + i + "]", "id", "label", "dataset", "metric", "average", "not_run", "scale",
                        "where");
                String id = text(c, "id", path, true);
                if (id != null && !ids.add(id)) {
                    error(path + "id", "'" + id + "' twice");
                }
                String dataset = text(c, "dataset", path, false);
                String metric = text(c, "metric", path, false);
                List<String> average = list(c, "average", path);
                String notRun = text(c, "not_run", path, false);
                int kinds = (dataset != null ? 1 : 0) + (!average.isEmpty() ? 1 : 0) + (notRun != null ? 1 : 0);
                if (kinds != 1) {
                    error(path.substring(0, path.length() - 1), "give exactly one of dataset (with metric), average or not_run");
                }
                if (dataset != null) {
                    datasetName(dataset, path + "dataset");
                    if (metric == null) {
                        error(path + "metric", "missing field");
                    } else {
                        metricName(metric, path + "metric");
                    }
                }
                for (String a : average) {
                    if (!ids.contains(a) || a.equals(id)) {
                        error(path + "average", "'" + a + "' is not an earlier column");
                    }
                }
                JsonNode sc = c.get("scale");
                double scale = sc != null && sc.isNumber() ? sc.asDouble()
                        : metric != null && FIGURES.contains(metric) ? 1 : 100;
                Map<String, String> where = strings(c, "where", path);
                if (!where.isEmpty() && (metric == null || FIGURES.contains(metric) || metric.equals("judge"))) {
                    error(path + "where", "only a registered metric can be computed over part of a run");
                }
                out.add(new Recipe.Column(id, text(c, "label", path, true), dataset, metric, average, notRun, scale,
                        where));
            }
            return out;
        }

        void metricName(String metric, String path) {
            if (metric.equals("judge") || FIGURES.contains(metric)) {
                return;
            }
            String base = metric.contains(".") ? metric.substring(0, metric.indexOf('.')) : metric;
            if (!Metrics.names().contains(base) && !Metrics.names().contains(metric)) {
                error(path, "unknown metric '" + metric + "'; known: " + String.join(", ", Metrics.names())
                        + " (or METRIC.extra, judge, " + String.join(", ", FIGURES) + ")");
            }
        }

        List<Recipe.Row> rows(JsonNode rs, List<Recipe.Column> columns, Recipe.Judge judge) {
            List<Recipe.Row> out = new ArrayList<>();
            if (!rs.isArray() || rs.isEmpty()) {
                error("rows", "missing field (a list of rows)");
                return out;
            }
            Set<String> ids = new HashSet<>();
            for (int i = 0; i < rs.size(); i++) {
                JsonNode r = rs.get(i);
                String path = "rows[" + i + "].";
                only(r, "rows[" + i + "]", "id", "label", "occurrence", "tokens", "block", "model", "method", "options",
                        "questions", "paper", "not_run");
                String id = text(r, "id", path, true);
                if (id != null && (!ids.add(id) || !id.matches("[a-z0-9][a-z0-9._-]*"))) {
                    error(path + "id", "'" + id + "' must be unique, lower-case letters, digits, . _ -");
                }
                String notRun = text(r, "not_run", path, false);
                String method = text(r, "method", path, notRun == null);
                Map<String, String> options = strings(r, "options", path);
                if (method != null) {
                    try {
                        methods.apply(method).resolve(options);
                    } catch (IllegalArgumentException e) {
                        error(path + (e.getMessage() != null && e.getMessage().contains("unknown method") ? "method" : "options"),
                                e.getMessage());
                    }
                }
                List<String> paper = list(r, "paper", path);
                if (paper.size() != columns.size()) {
                    error(path + "paper", paper.size() + " values for " + columns.size() + " columns");
                }
                for (int k = 0; k < paper.size(); k++) {
                    String v = paper.get(k);
                    if (v != null && !PaperValue.valid(v)) {
                        error(path + "paper[" + k + "]", "'" + v + "' is not a number as the paper prints it");
                    }
                }
                List<Integer> tokens = null;
                if (r.has("tokens")) {
                    tokens = new ArrayList<>();
                    for (JsonNode t : r.get("tokens")) {
                        tokens.add(t.asInt());
                    }
                    if (tokens.size() != paper.size()) {
                        error(path + "tokens", tokens.size() + " positions for " + paper.size() + " values");
                    }
                }
                JsonNode occ = r.get("occurrence");
                out.add(new Recipe.Row(id, text(r, "label", path, true), occ == null ? 1 : occ.asInt(), tokens,
                        text(r, "block", path, false), text(r, "model", path, true), method, options,
                        integer(r, "questions", path), paper, notRun));
            }
            return out;
        }
    }

    /** Every problem of a recipe, one line each. */
    public static final class RecipeException extends IllegalArgumentException {
        private final List<String> problems;

        public RecipeException(String recipe, List<String> problems) {
            super(String.join("\n", problems.stream().map(p -> "recipe " + recipe + ": " + p).toList()));
            this.problems = List.copyOf(problems);
        }

        public List<String> problems() {
            return problems;
        }
    }
}
