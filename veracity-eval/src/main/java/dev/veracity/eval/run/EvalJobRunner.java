package dev.veracity.eval.run;

import dev.veracity.method.Capability;
import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.judge.Judge;
import dev.veracity.eval.judge.JudgeOptions;
import dev.veracity.eval.judge.Judges;
import dev.veracity.method.QaMethod;
import dev.veracity.method.TrainingRecords;
import dev.veracity.method.Truncation;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.PageSource;
import dev.veracity.trace.TraceStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Runs an {@link EvalJob} in its folder: every mistake caught before the first model call (the folder free, the
 * method's needs met by the documents, the pages, the questions read, the servers checked, the folder's recorded
 * configuration the same), then one run per folder ({@link RunConfig}, {@link RunLock}) through {@link EvalRunner},
 * with the method's training records ({@link TrainingRecords}) written beside the answers.
 */
public final class EvalJobRunner {

    /**
     * What a job left.
     *
     * @param outcome the runner's outcome (counts, failures, summary)
     * @param records the method's training records file, or null when it keeps none
     * @param recordsDescription what that file holds, or null
     */
    public record Result(EvalRunner.Outcome outcome, Path records, String recordsDescription) {

        /** The line that names the records file after the run, if the method keeps records. */
        public Optional<String> recordsLine() {
            return records == null ? Optional.empty() : Optional.of(recordsDescription + ": " + records);
        }
    }

    private EvalJobRunner() {
    }

    /** Checks, claims the folder and runs the job on the environment's servers. */
    public static Result run(EvalJob job, JobEnvironment env) throws Exception {
        Path out = job.out();
        RunLock.requireFree(out); // another eval writing there: refused before any work
        QaMethod m = job.method();
        JobDocuments docs = job.documents();
        if (m.needs(Capability.RETRIEVER) && !docs.indexed()) {
            throw new IllegalArgumentException("method " + m.name() + " searches: build an index with ./veracity index and"
                    + " pass --index DIR");
        }
        docs.validate();
        // a page store that is none (or --pages with a method that reads no pages) stops here, before any model call
        PageSource pageStore = docs.openPages(m);
        try {
            if (m.needs(Capability.PAGES) && pageStore == null && !docs.indexed()) {
                requirePagesOrParagraphs(m, job.dataset(), job.data());
            } else if (!docs.indexed() && pageStore == null) {
                // a RAG method on a dataset without passages and without an index stops here, before any model call
                DocumentSource.dataset().requireDocuments(m, job.dataset(), job.data());
            }
            return claimAndRun(job, env, pageStore);
        } catch (Exception | Error e) {
            if (pageStore != null) {
                pageStore.close();
            }
            throw e;
        }
    }

    private static Result claimAndRun(EvalJob job, JobEnvironment env, PageSource pageStore) throws Exception {
        Path out = job.out();
        VeracityConfig base = job.model();
        // the server is checked while the dataset is hashed and read (a round trip saved from the start-up)
        CompletableFuture<Void> preflight = !job.preflight() ? CompletableFuture.completedFuture(null)
                : CompletableFuture.runAsync(() -> env.preflight(base),
                        // a platform thread: a virtual thread's blocking socket starts the JDK's poller thread, which
                        // waits in native code for the rest of the process and so holds its exit back 0.3 s
                        runnable -> Thread.ofPlatform().daemon().name("preflight").start(runnable));
        // and the trace store's native library loaded, on the other core, before the run folder is opened
        Thread.ofVirtual().name("sqlite-load").start(dev.veracity.store.Sqlite::loadLibrary);
        RunConfig runConfig = new RunConfig(fields(job, env, pageStore));
        // every mistake caught before the first model call: the questions read, the server and model checked
        try (var items = Datasets.stream(job.dataset(), job.data())) {
            if (job.sample() != null) {
                job.sample().select(items.toList()); // a sample the file cannot give stops here
            } else {
                (job.limit() > 0 ? items.limit(job.limit()) : items).forEach(i -> { });
            }
        }
        try {
            preflight.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        runConfig.check(out, job.force()); // one run per folder: refused before anything is written when it differs
        boolean createdOut = !Files.exists(out);
        boolean createdLock = !Files.exists(out.resolve(RunLock.FILE));
        boolean freshClaim = job.force() || !Files.exists(out.resolve(RunConfig.FILE));
        // the method's own files beside its answers (its training records) go with the run on --force or a take-back
        java.util.List<String> sideFiles = job.method() instanceof dev.veracity.method.TrainingRecords t
                ? java.util.List.of(t.recordsFile()) : java.util.List.of();
        try (RunLock lock = RunLock.acquire(out)) {
            runConfig.claim(out, job.force(), sideFiles);
            try {
                return run(job, env, pageStore, runConfig);
            } catch (Exception | Error e) {
                if (freshClaim) { // refused before its first answer (an index that is none): leave nothing behind
                    RunConfig.abandon(out, createdOut, createdLock, sideFiles);
                }
                throw e;
            }
        }
    }

    /** What the run's answers depend on, as {@code run.json} records it. */
    private static Map<String, Object> fields(EvalJob job, JobEnvironment env, PageSource pageStore) throws IOException {
        VeracityConfig base = job.model();
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("method", job.method().name());
        fields.put("method_options", job.method().spec().typed(job.options())); // numbers as numbers, booleans as booleans
        fields.put("dataset", job.dataset());
        fields.put("data", job.data().toAbsolutePath().normalize().toString());
        fields.put("data_sha256", RunConfig.sha256(job.data()));
        if (job.sample() != null) {
            fields.put("sample", job.sample().describe()); // recorded only when used: earlier run folders stay resumable
        }
        fields.put("metrics", DatasetProfile.of(job.dataset()).withMetrics(job.metrics()).metrics());
        fields.put("model", base.model());
        fields.put("llm_base_url", job.serverLabel() != null ? job.serverLabel() : base.llmBaseUrl());
        fields.put("documents", job.documents().describe());
        if (pageStore != null) {
            fields.put("pages", job.documents().describePages(pageStore));
        }
        String proxy = env.proxy(base);
        if (proxy != null) {
            fields.put("proxy", proxy);
        }
        if (job.truncated() == Truncation.Policy.KEEP) {
            fields.put("truncated", job.truncated().label()); // recorded only when not the default: earlier runs stay resumable
        }
        fields.put("judge", job.judge() == null ? "none" : job.judge().describe(base.model()));
        if (job.shard() != null) {
            fields.put("shard", job.shard().toString()); // only when sharded: a resume with another shard is refused
        }
        return fields;
    }

    /** The run itself, in the claimed and locked folder. */
    private static Result run(EvalJob job, JobEnvironment env, PageSource pageStore, RunConfig runConfig) throws Exception {
        Path out = job.out();
        // The run folder keeps its own traces, so that a report reads one place.
        VeracityConfig cfg = job.model().withTraceFile(out.resolve("traces.db"));
        String runName = String.valueOf(out.toAbsolutePath().normalize().getFileName());
        QaMethod m = job.method();
        AgentRecordsFile records = null;
        String recordsDescription = null;
        if (m instanceof TrainingRecords keeps) { // a side output of the method's own, beside its answers
            records = new AgentRecordsFile(out.resolve(keeps.recordsFile()));
            recordsDescription = keeps.recordsDescription();
            m = keeps.recording(runName, records);
        }
        String traceRun = runName + "@" + Instant.now();
        EvalRunner.Outcome outcome;
        try {
            Embedder embedder = job.documents().embedder(m);
            try (JobDocuments.Index index = job.documents().openIndex(embedder);
                 PageSource pagesOpen = pageStore;
                 TraceStore store = TraceStore.open(cfg.traceFile())) {
                EvalRunner.QuestionTraces traces = new EvalRunner.QuestionTraces(store);
                try (JobEnvironment.Models models = env.models(cfg, traces);
                     JobEnvironment.Watch watch = env.watch(job)) {
                    EvalJob.JudgeSettings j = job.judge();
                    Judge judge = j == null ? null : Judges.byName(j.name(), models.client(),
                            new JudgeOptions(j.samples(), j.samples() > 1 ? 0.7 : 0.0, null, j.model()), j.prompt());
                    EvalRunner.Spec spec = new EvalRunner.Spec(m, job.dataset(), job.data(), job.limit(), out,
                            // each server has its own limit: the questions that keep one busy, for each
                            job.questionsAtOnce() != null ? job.questionsAtOnce()
                                    : cfg.concurrency().questionsAtOnce() * cfg.llmBaseUrls().size(),
                            DatasetProfile.of(job.dataset()).withMetrics(job.metrics()), job.options(),
                            job.labels() != null ? job.labels() : EvalRunner.labels("model", cfg.model(),
                                    "llm_base_url", cfg.llmBaseUrl(), "concurrency", String.valueOf(cfg.concurrency()),
                                    "timeout_seconds", String.valueOf(cfg.timeout().toSeconds()),
                                    "cache", cfg.cacheMode().name().toLowerCase(Locale.ROOT)),
                            index == null ? null : index.retriever(), embedder, judge,
                            index == null ? DocumentSource.dataset() : index.source(), runConfig.json(), pagesOpen,
                            job.sample(), job.truncated(), job.shard());
                    outcome = EvalRunner.run(spec, models.client(), models.clients(), traces, traceRun, watch);
                }
            }
        } finally {
            if (records != null) {
                records.close();
            }
        }
        return new Result(outcome, records == null ? null : records.file(), recordsDescription);
    }

    /**
     * A method whose agents act in a Wikipedia, without pages: the question's own paragraphs are its pages, so a
     * dataset whose questions come without any (HotpotQA simplified, FEVER) stops here with what to pass.
     */
    private static void requirePagesOrParagraphs(QaMethod m, String dataset, Path data) {
        Optional<dev.veracity.qa.QaItem> first;
        try (var items = Datasets.stream(dataset, data)) {
            first = items.findFirst();
        }
        if (first.isPresent() && first.get().documents().isEmpty()) {
            throw new IllegalArgumentException("method " + m.name() + "'s agents search a Wikipedia and " + dataset
                    + " questions come without paragraphs: build a page store (./veracity index --pages --corpus FILE"
                    + " --format hotpotqa-abstracts|kilt|fever|jsonl --out DIR) and pass --pages DIR");
        }
    }
}
