package dev.veracity.eval.recipe;

import dev.veracity.eval.run.QuestionSample;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One main table of a paper as a reproducible run: the methods (by their registered names, with options), the
 * datasets (by their registered names), the paper's split and sampling, the model roles, the metrics and the
 * paper's published numbers with the model of each row. Read from {@code recipes/NAME.yaml} by {@link Recipes},
 * which checks every reference before anything runs.
 *
 * @param name      the recipe's name (its file name)
 * @param title     one line: the paper and the table
 * @param paper     where the table is in the paper's text ({@code ../shared/papers})
 * @param split     how the paper chose its questions
 * @param models    the paper's model roles, role to model(s)
 * @param sampling  the paper's sampling settings in words (the runs' own settings are the rows' method options)
 * @param judge     an LLM judge every run also uses, or null
 * @param documents per dataset ({@code *}: every dataset), where the runs' documents come from: {@code dataset}
 *                  (the questions' own), {@code index} ({@code --index}), {@code pages} ({@code --pages}) or
 *                  {@code none}
 * @param files     per dataset, which of the registry's official files the paper used (default: the first)
 * @param tolerance how far (in the table's units) our number may be from the paper's and still count as reproduced
 * @param needs     what a user needs beyond the datasets, in words (model, index, page store)
 * @param notes     decisions where the paper is silent, and what the numbers mean
 * @param columns   the table's columns
 * @param rows      the table's rows
 * @param subset    the questions every cell is computed over when the paper scored part of its split, chosen from
 *                  another row's run; null: every question of each run
 * @param questionsAtOnce the questions each run answers at once, where a column depends on it (a time per question
 *                  grows when a server queues the requests of several questions); null: eval's default
 */
public record Recipe(String name, String title, Paper paper, Split split, Map<String, String> models, String sampling,
                     Judge judge, Map<String, String> documents, Map<String, String> files, double tolerance, Map<String, String> needs, List<String> notes,
                     List<Column> columns, List<Row> rows, Subset subset, Integer questionsAtOnce) {

    /**
     * Where the table is in the paper's text file, and how the extraction laid it out (the paper-numbers test reads
     * it; see {@code RecipePaperNumbersTest}).
     *
     * @param file   the paper file's name without {@code .txt}
     * @param table  the table's name in the paper, e.g. {@code Table 1}
     * @param anchor text just before the table in the file; the table is looked for after it
     * @param end    text just after the table (null: the next 80 lines)
     * @param layout {@code rows}: one line per row; {@code columns}: each column's values of a block of rows
     *               contiguous; {@code runs}: the listed cell sequences contiguous
     * @param runs   for {@code runs}: sequences of {@code ROW:COLUMN} cells as the text lists them
     */
    public record Paper(String file, String table, String anchor, String end, String layout, List<List<String>> runs) {
    }

    /**
     * How the paper chose its questions; exactly one of {@code first}, {@code sample} or {@code all}.
     *
     * @param first  the first N questions of the file
     * @param sample N questions drawn with CPython's shuffle ({@link QuestionSample})
     * @param seed   the shuffle's seed
     * @param range  per dataset, the length of the shuffled index list when the paper's code fixes it
     * @param note   what the paper says, and what is ours where it says nothing
     */
    public record Split(Integer first, Integer sample, Long seed, Map<String, Integer> range, String note) {

        /** The sample for a dataset, or null when the split is not a random sample. */
        public QuestionSample sampleFor(String dataset) {
            return sample == null ? null : new QuestionSample(sample, seed, range.getOrDefault(dataset, 0));
        }

        /** The questions of a full run of one dataset (null: every question of the file). */
        public Integer size() {
            return first != null ? first : sample;
        }

        public String describe() {
            if (first != null) {
                return "the first " + first + " questions of the file";
            }
            if (sample != null) {
                return sample + " questions, python random.Random(" + seed + ").shuffle" + (range.isEmpty() ? "" : " " + range);
            }
            return "every question of the file";
        }
    }

    /** An LLM judge, by its registered name, with its majority-vote samples and the paper's judge model. */
    public record Judge(String name, int samples, String model) {
    }

    /**
     * A column: a dataset's metric, the mean of other columns, or a column we cannot run (with why).
     *
     * @param metric a registered metric (or {@code metric.extra}), {@code judge} (the judge's accuracy), or a
     *               per-question figure of summary.json ({@code calls_per_question}, ...)
     * @param scale  our number times this is the paper's unit (default 100 for metrics, 1 for per-question figures)
     * @param where  result-line fields a question must have to count (CRAG's {@code question_type}); empty: all
     */
    public record Column(String id, String label, String dataset, String metric, List<String> average, String notRun,
                         double scale, Map<String, String> where) {
    }

    /**
     * Part of the split, picked per dataset by one row's run: every row's cells on a dataset are computed over the
     * questions whose result line in that row's run satisfies the rule (Reasoning Court's Table 2: the questions on
     * which its two agents disagree, {@code subset: {row: judge.gpt-4o-mini, where: agents-disagree}}). Each cell
     * re-scores its column's metric over those questions' result lines, so every column must be a registered metric
     * (or an average of such columns); a dataset on which the row has no run has no subset, and its cells are not run.
     *
     * @param row   the row whose run picks the questions (a row of this recipe that runs here)
     * @param where the rule, one of {@link SubsetRule#ids()}
     */
    public record Subset(String row, String where) {

        public SubsetRule rule() {
            return SubsetRule.byId(where).orElseThrow(() -> new IllegalStateException("unknown subset rule '" + where + "'"));
        }
    }

    /** Where a dataset's documents come from in this recipe. */
    public String documentsFor(String dataset) {
        return documents.getOrDefault(dataset, documents.getOrDefault("*", "dataset"));
    }

    /**
     * A row: the paper's label, model and numbers, and the method that reproduces it.
     *
     * @param id         our id, unique in the recipe (run folders are named after it)
     * @param label      the row's label in the paper
     * @param occurrence which line with that label (1 = the first after the anchor)
     * @param tokens     for {@code rows} layout: which numbers of the line are this row's (null: all, in order)
     * @param block      for {@code columns} layout: the rows whose column values the text lists together
     * @param model      the paper's model for this row
     * @param method     the registered method that reproduces it
     * @param options    its method options
     * @param questions  this row's questions when the paper ran fewer (null: the split's)
     * @param paper      the paper's numbers, one per column, as printed (null: "-")
     * @param notRun     why this row is not run here (a method or model we do not have), or null
     */
    public record Row(String id, String label, int occurrence, List<Integer> tokens, String block, String model,
                      String method, Map<String, String> options, Integer questions, List<String> paper,
                      String notRun) {
    }

    /**
     * The registry's official file of a dataset the paper used: the one {@code files} names, else the dataset's first
     * ({@link dev.veracity.eval.data.Datasets}).
     *
     * @throws IllegalStateException when the registry declares no file for it
     */
    public dev.veracity.eval.data.Download officialFile(String dataset) {
        dev.veracity.eval.data.DatasetSpec ds = dev.veracity.eval.data.Datasets.spec(dataset);
        if (ds.downloads().isEmpty()) {
            throw new IllegalStateException("dataset " + dataset + " declares no official file in the registry");
        }
        String wanted = files.get(dataset);
        return wanted == null ? ds.downloads().getFirst()
                : ds.downloads().stream().filter(x -> x.file().equals(wanted)).findFirst().orElseThrow();
    }

    /**
     * How many questions the paper's split takes from a dataset's file: the first N, or the range a sample is drawn
     * from (else its size); null when it takes every question (then only the checksum can tell the file is the paper's).
     */
    public Integer questionsNeeded(String dataset) {
        if (split.first() != null) {
            return split.first();
        }
        if (split.sample() != null) {
            return Math.max(split.sample(), split.range().getOrDefault(dataset, 0));
        }
        return null;
    }

    /**
     * Whether the split draws from a dataset file's whole question list, so that a file of another question count is
     * another split: every question, or a sample shuffled over all of them (no fixed range).
     */
    public boolean drawsFromWholeFile(String dataset) {
        return split.size() == null || split.sample() != null && split.range().getOrDefault(dataset, 0) == 0;
    }

    /** The datasets the recipe runs, in column order. */
    public List<String> datasets() {
        return columns.stream().map(Column::dataset).filter(d -> d != null).distinct().toList();
    }

    public Optional<Column> column(String id) {
        return columns.stream().filter(c -> c.id().equals(id)).findFirst();
    }

    /** Rows that run here. */
    public List<Row> runnableRows() {
        return rows.stream().filter(r -> r.notRun() == null).toList();
    }
}
