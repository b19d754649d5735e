package dev.veracity.eval.run;

import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.judge.JudgePrompt;
import dev.veracity.eval.judge.Judges;
import dev.veracity.method.Capability;
import dev.veracity.method.QaMethod;
import dev.veracity.method.Truncation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One eval run, typed and checked: a method with its resolved options over a dataset file, into one run folder, on a
 * model configuration, with its documents, judge, selection of questions and limits. {@code eval} maps its flags to
 * one, {@code reproduce} and {@code demo} build them directly; {@link EvalJobRunner} runs it. {@link Builder#build()}
 * checks everything that needs no server, each mistake one line naming the {@code eval} flag to fix, before any model
 * call.
 *
 * @param method          the method (a {@link dev.veracity.method.TrainingRecords} one also writes its records)
 * @param options         the method's options, resolved against its declaration (defaults filled in)
 * @param dataset         the dataset's registry name (an alias resolved)
 * @param data            the dataset file
 * @param limit           the first N questions (of the sample, when there is one); 0 = all
 * @param out             the run folder
 * @param metrics         the metrics, or null for the dataset's official ones
 * @param questionsAtOnce questions answered at once, or null for twice the model's concurrency ({@link #defaultQuestionsAtOnce})
 * @param judge           the LLM judge, or null
 * @param truncated       what an answer read from a cut output counts as
 * @param sample          the papers' sample of the file's questions, or null for file order
 * @param model           the model server, model and client settings
 * @param documents       documents beyond the dataset's own (index, pages, embedder)
 * @param preflight       whether to check the servers before the run
 * @param force           start the folder over instead of refusing a run of another configuration
 * @param serverLabel     what {@code run.json} records as the server instead of its URL (an in-process simulator whose
 *                        port changes with every start), or null
 * @param labels          the summary's labels, or null for the model, server, concurrency, timeout and cache
 * @param shard           the share of the selected questions this run answers ({@code --shard I/N}), or null for all
 */
public record EvalJob(QaMethod method, Map<String, String> options, String dataset, Path data, int limit, Path out,
                      List<String> metrics, Integer questionsAtOnce, JudgeSettings judge, Truncation.Policy truncated,
                      QuestionSample sample, VeracityConfig model, JobDocuments documents, boolean preflight,
                      boolean force, String serverLabel, Map<String, String> labels, Shard shard) {

    /**
     * The LLM judge a job scores with.
     *
     * @param name    crag, true-false, equivalence, or a plug-in's
     * @param prompt  the crag judge's text
     * @param model   the judge's model, or null for the job's
     * @param samples samples per verdict, majority vote
     */
    public record JudgeSettings(String name, JudgePrompt prompt, String model, int samples) {

        public JudgeSettings {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(prompt, "prompt");
        }

        /** How {@code run.json} records it: the judged metrics depend on each part. */
        String describe(String jobModel) {
            return name + " model=" + (model == null ? jobModel : model) + " samples=" + samples + " prompt=" + prompt.label();
        }
    }

    public EvalJob {
        Objects.requireNonNull(method, "method");
        options = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(options));
        Objects.requireNonNull(dataset, "dataset");
        Objects.requireNonNull(data, "data");
        Objects.requireNonNull(out, "out");
        metrics = metrics == null ? null : List.copyOf(metrics);
        Objects.requireNonNull(truncated, "truncated");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(documents, "documents");
        labels = labels == null ? null : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(labels));
        if (labels != null) {
            EvalRunner.requireLabels(labels);
        }
    }

    /**
     * The questions answered at once: the job's, else the model's concurrency (for {@code auto}, its highest limit, so
     * that questions are waiting whenever the limit grows).
     */
    public int concurrency() {
        return questionsAtOnce != null ? questionsAtOnce : model.concurrency().questionsAtOnce();
    }

    public static Builder builder(QaMethod method, String dataset, Path data, Path out) {
        return new Builder(method, dataset, data, out);
    }

    /** A job, checked as it is built. */
    public static final class Builder {

        private final QaMethod method;
        private final String dataset;
        private final Path data;
        private final Path out;
        private Map<String, String> options = Map.of();
        private int limit;
        private List<String> metrics;
        private Integer questionsAtOnce;
        private String judgeName;
        private String judgePrompt;
        private String judgeModel;
        private int judgeSamples = 1;
        private Truncation.Policy truncated = Truncation.Policy.FAIL;
        private QuestionSample sample;
        private VeracityConfig model;
        private JobDocuments documents;
        private boolean preflight = true;
        private boolean force;
        private String serverLabel;
        private Map<String, String> labels;
        private Shard shard;

        private Builder(QaMethod method, String dataset, Path data, Path out) {
            this.method = Objects.requireNonNull(method, "method");
            this.dataset = Objects.requireNonNull(dataset, "dataset");
            this.data = Objects.requireNonNull(data, "data");
            this.out = Objects.requireNonNull(out, "out");
        }

        /** The method's options as given ({@code KEY=VALUE}); checked against its declaration by {@link #build()}. */
        public Builder options(Map<String, String> given) {
            this.options = given == null ? Map.of() : given;
            return this;
        }

        public Builder limit(int n) {
            this.limit = n;
            return this;
        }

        /** The metrics; null or empty: the dataset's official ones. */
        public Builder metrics(List<String> names) {
            this.metrics = names;
            return this;
        }

        public Builder questionsAtOnce(Integer n) {
            this.questionsAtOnce = n;
            return this;
        }

        /** The judge by name, or none (null). */
        public Builder judge(String name) {
            this.judgeName = name;
            return this;
        }

        /** The crag judge's text by name ({@code authors}, the default, or {@code paper}); needs a judge. */
        public Builder judgePrompt(String name) {
            this.judgePrompt = name;
            return this;
        }

        public Builder judgeModel(String name) {
            this.judgeModel = name;
            return this;
        }

        public Builder judgeSamples(int k) {
            this.judgeSamples = k;
            return this;
        }

        public Builder truncated(Truncation.Policy policy) {
            this.truncated = Objects.requireNonNull(policy, "truncated");
            return this;
        }

        public Builder sample(QuestionSample s) {
            this.sample = s;
            return this;
        }

        public Builder model(VeracityConfig config) {
            this.model = config;
            return this;
        }

        public Builder documents(JobDocuments d) {
            this.documents = d;
            return this;
        }

        public Builder preflight(boolean check) {
            this.preflight = check;
            return this;
        }

        public Builder force(boolean startOver) {
            this.force = startOver;
            return this;
        }

        public Builder serverLabel(String label) {
            this.serverLabel = label;
            return this;
        }

        /** The share of the selected questions to answer, or null for all. */
        public Builder shard(Shard share) {
            this.shard = share;
            return this;
        }

        public Builder labels(Map<String, String> summaryLabels) {
            this.labels = summaryLabels;
            return this;
        }

        /**
         * The job, checked: limits and counts, the method's options against its declaration, the dataset's name and
         * file, the judge. Throws {@link IllegalArgumentException} with one line on the first mistake.
         */
        public EvalJob build() {
            if (questionsAtOnce != null && questionsAtOnce < 1) {
                throw new IllegalArgumentException("--questions-at-once must be >= 1, was " + questionsAtOnce);
            }
            if (judgeSamples < 1) {
                throw new IllegalArgumentException("--judge-samples must be >= 1, was " + judgeSamples);
            }
            // Checked against the method's declaration before anything runs; the method and the run see the resolved map.
            Map<String, String> resolved = method.spec().resolve(options).values();
            Capability.requireProvided(method.spec()); // a plug-in's need no runner here meets
            String name = Datasets.spec(dataset).name(); // an alias runs, is scored and is prompted as its dataset
            DatasetProfile.of(name).withMetrics(metrics); // an unknown metric: here, before a run records it
            if (!Files.isRegularFile(data)) {
                throw new IllegalArgumentException("no dataset file at " + data);
            }
            if (limit < 0) {
                throw new IllegalArgumentException("--limit must be >= 0");
            }
            if (judgeName != null) {
                Judges.requireKnown(judgeName);
            } else if (judgePrompt != null) {
                throw new IllegalArgumentException("--judge-prompt sets the judge's text: name the judge too (--judge crag)");
            }
            JudgePrompt text = judgePrompt == null ? JudgePrompt.AUTHORS : JudgePrompt.byName(judgePrompt);
            if (model == null) {
                throw new IllegalArgumentException("no model configuration: pass --llm-base-url and --model");
            }
            if (documents == null) {
                throw new IllegalArgumentException("no documents: the job names none (the dataset's own or an index)");
            }
            return new EvalJob(method, resolved, name, data, limit, out, metrics == null || metrics.isEmpty() ? null : metrics,
                    questionsAtOnce, judgeName == null ? null : new JudgeSettings(judgeName, text, judgeModel, judgeSamples),
                    truncated, sample, model, documents, preflight, force, serverLabel, labels, shard);
        }
    }
}
