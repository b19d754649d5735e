package dev.veracity.eval.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.judge.Judge;
import dev.veracity.eval.metrics.Aggregate;
import dev.veracity.qa.AnswerSetParser;
import dev.veracity.eval.metrics.LineScores;
import dev.veracity.eval.metrics.Metric;
import dev.veracity.eval.metrics.Metrics;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.Capability;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.ModelRole;
import dev.veracity.method.QaMethod;
import dev.veracity.qa.QaItem;
import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.PageSource;
import dev.veracity.retrieval.Retriever;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.CallStats;
import dev.veracity.trace.TraceSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Runs a method over a dataset: questions concurrently (bounded), each scored by the dataset's metrics and
 * appended to {@code results.jsonl} as soon as it is done; then {@code summary.json} over every line. Resumable:
 * started again with the same output folder after a kill, it answers only the questions the file lacks, and the
 * response cache makes the calls a killed question had already finished free.
 */
public final class EvalRunner {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * What to run.
     *
     * @param method      the method
     * @param dataset     the dataset's name (selects the loader, the default metrics and the prompt set)
     * @param data        the dataset file
     * @param limit       the first {@code limit} questions of the file (0 = all)
     * @param outDir      where results.jsonl and summary.json go
     * @param concurrency questions answered at once
     * @param profile     metrics and answer shape
     * @param options     method options
     * @param labels      what summary.json records about the model (model name, server URL)
     * @param retriever   for methods that search, or null
     * @param embedder    for methods that compare documents by embedding, or null
     * @param judge       an LLM judge that also scores each prediction against the gold answers, or null
     * @param documents   where each question's documents come from (null: the dataset's own)
     * @param config      the run's recorded configuration (the CLI's run.json), copied into summary.json; or null
     * @param pages       a page store for methods whose agents act in a Wikipedia ({@code --pages}), or null
     * @param sample      a paper's random selection of the file's questions, applied before {@code limit}; or null
     * @param truncated   what to do with an answer read from an output its token limit cut ({@link Truncation})
     */
    public record Spec(QaMethod method, String dataset, Path data, int limit, Path outDir, int concurrency,
                       DatasetProfile profile, Map<String, String> options, Map<String, String> labels,
                       Retriever retriever, Embedder embedder, Judge judge, DocumentSource documents, JsonNode config,
                       PageSource pages, QuestionSample sample, Truncation.Policy truncated) {

        /** A spec whose answers read from a cut output fail ({@link Truncation.Policy#FAIL}, the default). */
        public Spec(QaMethod method, String dataset, Path data, int limit, Path outDir, int concurrency,
                    DatasetProfile profile, Map<String, String> options, Map<String, String> labels,
                    Retriever retriever, Embedder embedder, Judge judge, DocumentSource documents, JsonNode config,
                    PageSource pages, QuestionSample sample) {
            this(method, dataset, data, limit, outDir, concurrency, profile, options, labels, retriever, embedder, judge,
                    documents, config, pages, sample, Truncation.Policy.FAIL);
        }

        /** A spec over the file's questions in file order. */
        public Spec(QaMethod method, String dataset, Path data, int limit, Path outDir, int concurrency,
                    DatasetProfile profile, Map<String, String> options, Map<String, String> labels,
                    Retriever retriever, Embedder embedder, Judge judge, DocumentSource documents, JsonNode config,
                    PageSource pages) {
            this(method, dataset, data, limit, outDir, concurrency, profile, options, labels, retriever, embedder, judge,
                    documents, config, pages, null);
        }

        /** A spec without a page store. */
        public Spec(QaMethod method, String dataset, Path data, int limit, Path outDir, int concurrency,
                    DatasetProfile profile, Map<String, String> options, Map<String, String> labels,
                    Retriever retriever, Embedder embedder, Judge judge, DocumentSource documents, JsonNode config) {
            this(method, dataset, data, limit, outDir, concurrency, profile, options, labels, retriever, embedder, judge,
                    documents, config, null);
        }

        /** Whether the method's agents act in the run's page store (then they need no documents from the dataset). */
        boolean actsInPages() {
            return pages != null && method.needs(Capability.PAGES);
        }

        /** A spec without a recorded configuration. */
        public Spec(QaMethod method, String dataset, Path data, int limit, Path outDir, int concurrency,
                    DatasetProfile profile, Map<String, String> options, Map<String, String> labels,
                    Retriever retriever, Embedder embedder, Judge judge, DocumentSource documents) {
            this(method, dataset, data, limit, outDir, concurrency, profile, options, labels, retriever, embedder, judge,
                    documents, null);
        }

        /** A spec whose questions keep the dataset's own documents. */
        public Spec(QaMethod method, String dataset, Path data, int limit, Path outDir, int concurrency,
                    DatasetProfile profile, Map<String, String> options, Map<String, String> labels,
                    Retriever retriever, Embedder embedder, Judge judge) {
            this(method, dataset, data, limit, outDir, concurrency, profile, options, labels, retriever, embedder, judge,
                    null, null);
        }

        /** A spec without retrieval tools or judge. */
        public Spec(QaMethod method, String dataset, Path data, int limit, Path outDir, int concurrency,
                    DatasetProfile profile, Map<String, String> options, Map<String, String> labels) {
            this(method, dataset, data, limit, outDir, concurrency, profile, options, labels, null, null, null, null,
                    null);
        }

        public Spec {
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be >= 1");
            }
            options = options == null ? Map.of() : Map.copyOf(options);
            labels = labels == null ? Map.of() : Map.copyOf(labels);
            documents = documents == null ? DocumentSource.dataset() : documents;
            truncated = truncated == null ? Truncation.Policy.FAIL : truncated;
        }
    }

    /** What a run did this time, for the progress display and the exit code. */
    public record Outcome(int total, int alreadyDone, int answered, List<String> failures, ObjectNode summary) {
    }

    /** Live progress: done of total, calls and tokens so far. */
    public record Progress(int done, int total, long calls, long tokens) {
    }

    /** Routes each call's trace record to the question being answered, as well as to the store. */
    public static final class QuestionTraces implements TraceSink {
        private final TraceSink store;
        private final Map<String, List<CallRecord>> open = new ConcurrentHashMap<>();
        /** Per role, the distinct sampling settings its calls used (sample positions left out), for summary.json. */
        private final Map<String, java.util.Set<String>> sampling = new ConcurrentHashMap<>();

        public QuestionTraces(TraceSink store) {
            this.store = store;
        }

        @Override
        public void record(CallRecord r) {
            store.record(r);
            String role = r.context().role() == null ? "-" : r.context().role();
            sampling.computeIfAbsent(role, k -> ConcurrentHashMap.newKeySet()).add(withoutSamplePosition(r.settings()));
            List<CallRecord> list = open.get(r.context().runId() + "\u0000" + r.context().questionId());
            if (list != null) {
                list.add(r);
            }
        }

        /** The sampling settings seen so far, role by role (sorted), each as its JSON object. */
        ObjectNode sampling() {
            ObjectNode o = JSON.createObjectNode();
            new java.util.TreeMap<>(sampling).forEach((role, set) -> {
                ArrayNode a = o.putArray(role);
                set.stream().sorted().forEach(js -> {
                    try {
                        a.add(JSON.readTree(js));
                    } catch (IOException e) {
                        a.add(js);
                    }
                });
            });
            return o;
        }

        private static String withoutSamplePosition(String settings) {
            try {
                JsonNode n = JSON.readTree(settings == null ? "{}" : settings);
                if (n instanceof ObjectNode o) {
                    o.remove("first_sample");
                    return o.toString();
                }
            } catch (IOException e) {
                // not JSON: kept as it is
            }
            return String.valueOf(settings);
        }

        void begin(String run, String question) {
            open.put(run + "\u0000" + question, Collections.synchronizedList(new ArrayList<>()));
        }

        List<CallRecord> end(String run, String question) {
            List<CallRecord> l = open.remove(run + "\u0000" + question);
            return l == null ? List.of() : l;
        }

        @Override
        public void flush() {
            store.flush();
        }
    }

    /** Questions in a row that failed to reach the server (connection or timeout) after which a run stops. */
    public static final int STOP_AFTER_UNREACHABLE = 5;

    private EvalRunner() {
    }

    /** Whether a question failed because the server could not be reached (not because of its own request). */
    static boolean unreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof dev.veracity.llm.LlmException l) {
                return l.kind() == dev.veracity.llm.ErrorKind.CONNECTION || l.kind() == dev.veracity.llm.ErrorKind.TIMEOUT;
            }
        }
        return false;
    }

    /**
     * Runs the spec. The client must trace into {@code traces} (so per-question accounting sees the calls).
     *
     * @param traceRun the run id the calls are traced under (one per invocation, recorded in each result line)
     */
    public static Outcome run(Spec spec, LlmClient client, QuestionTraces traces, String traceRun,
                              Consumer<Progress> progress) {
        return run(spec, client, Map.of(), traces, traceRun, progress);
    }

    /**
     * Runs the spec with further models by role name, for methods whose agents use several models: each is bound to
     * the {@link ModelRole} of that name the method declares ({@link MethodContext#model}; C-3PO's {@code proxy}), and
     * one for a role the method does not declare is not used. Each must trace into {@code traces} too.
     */
    public static Outcome run(Spec spec, LlmClient client, Map<String, LlmClient> clients, QuestionTraces traces,
                              String traceRun, Consumer<Progress> progress) {
        // a need no runner here meets (a plug-in's own capability) stops here, before the dataset is read
        Capability.requireProvided(spec.method().spec());
        Map<ModelRole, LlmClient> models = ModelRole.bind(spec.method().spec(), clients);
        List<Metric> metrics = spec.profile().metrics().stream().map(n -> Metrics.byName(n, spec.options())).toList();
        // The dataset is streamed, never held: read for its first question, then to count, then to answer.
        QaItem first;
        try (Stream<QaItem> s = slice(spec)) {
            first = s.findFirst().orElse(null);
        }
        // before any model call: a RAG method on a dataset without passages and without an index stops here
        // (a method whose agents act in the run's page store needs none)
        if (!spec.actsInPages()) {
            spec.documents().requireDocuments(spec.method(), spec.dataset(), first);
        }
        boolean datasetHasDocuments = first != null && !first.documents().isEmpty();
        Instant started = Instant.now();
        try (ResultsFile results = ResultsFile.open(spec.outDir().resolve("results.jsonl"))) {
            int total = 0;
            int already = 0;
            try (Stream<QaItem> s = slice(spec)) {
                for (Iterator<QaItem> it = s.iterator(); it.hasNext(); ) {
                    total++;
                    already += results.isDone(it.next().id()) ? 1 : 0;
                }
            }
            int items = total;
            AtomicInteger done = new AtomicInteger(already);
            List<String> failures = Collections.synchronizedList(new ArrayList<>());
            long calls0 = client.counters().calls();
            long tokens0 = client.counters().promptTokens() + client.counters().completionTokens();
            Runnable report = () -> progress.accept(new Progress(done.get(), items,
                    client.counters().calls() - calls0,
                    client.counters().promptTokens() + client.counters().completionTokens() - tokens0));
            report.run();
            Semaphore slots = new Semaphore(spec.concurrency());
            AtomicInteger unreachable = new AtomicInteger(); // consecutive questions lost to a server that does not answer
            int failedBefore = 0; // questions left unasked after a stop whose last record is a failure
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
                 Stream<QaItem> s = slice(spec)) {
                for (Iterator<QaItem> it = s.iterator(); it.hasNext(); ) {
                    QaItem item = it.next();
                    if (results.isDone(item.id())) {
                        continue;
                    }
                    boolean stopped = unreachable.get() >= STOP_AFTER_UNREACHABLE;
                    if (!stopped) {
                        slots.acquireUninterruptibly(); // then look again: the question before may just have failed
                        stopped = unreachable.get() >= STOP_AFTER_UNREACHABLE;
                        if (stopped) {
                            slots.release();
                        }
                    }
                    if (stopped) {
                        // the server is down: keep what was done, ask nothing more
                        failedBefore += results.isFailed(item.id()) ? 1 : 0;
                        continue;
                    }
                    pool.submit(() -> {
                        try {
                            results.append(answer(spec, item, client, models, traces, traceRun, metrics));
                            done.incrementAndGet();
                            unreachable.set(0);
                        } catch (RuntimeException e) {
                            if (unreachable(e)) {
                                unreachable.incrementAndGet();
                            }
                            String reason = ResultsFile.oneLine(String.valueOf(e.getMessage()));
                            failures.add(item.id() + ": " + reason);
                            // a row with its reason: shown by report and compare, asked again by the next run
                            results.appendFailure(item.id(), item.question(), kind(e), reason);
                        } finally {
                            slots.release();
                            report.run();
                        }
                    });
                }
            }
            traces.flush();
            DocumentSource.RetrievalTally retrieval = spec.documents().tally(spec.method(), datasetHasDocuments);
            Truncation.Tally truncation = new Truncation.Tally();
            ObjectNode summary = summary(spec, results.answered(), metrics, failures.size(), traceRun, started, retrieval,
                    truncation);
            // every question of this run's slice whose last record is a failure (this run's and earlier runs' alike)
            summary.put("failed", failures.size() + failedBefore);
            // the slice this run was asked to answer, so that a reader judges the run from its own record (a recipe:
            // is it the paper's split, was it cut short): its --limit when one was given, and its question count
            if (spec.limit() > 0) {
                summary.put("limit", spec.limit());
            }
            summary.put("questions", items);
            summary.set("truncated", truncation.result(results.failures().stream()
                    .filter(f -> f.path(ResultsFile.FAILED_KIND).asText().equals(ErrorKind.TRUNCATED.name())).count(),
                    spec.truncated()));
            summary.set("retrieval", retrieval.result());
            summary.set("sampling", traces.sampling());
            summary.set("build", JSON.valueToTree(dev.veracity.config.BuildInfo.current().asMap()));
            String references = Datasets.spec(spec.dataset()).references();
            if (summary.get("retrieval") instanceof ObjectNode r && r.path("source").asText().equals("dataset")
                    && !references.isEmpty()) {
                r.put("references", references); // which documents the dataset's questions came with
            }
            if (spec.config() != null) {
                summary.set("config", spec.config());
            }
            write(spec.outDir().resolve("summary.json"), summary);
            if (unreachable.get() >= STOP_AFTER_UNREACHABLE) {
                failures.add("stopped after " + STOP_AFTER_UNREACHABLE + " questions in a row failed to reach the model"
                        + " server (connection failures or timeouts); what was done is kept: run the same command to resume");
                summary.put("stopped", "server unreachable");
                write(spec.outDir().resolve("summary.json"), summary);
            }
            return new Outcome(items, already, done.get() - already, List.copyOf(failures), summary);
        }
    }

    /** The run's questions: the first {@code limit} of the file (all with 0), parsed as they are read. */
    private static Stream<QaItem> slice(Spec spec) {
        Stream<QaItem> s = Datasets.stream(spec.dataset(), spec.data());
        if (spec.sample() != null) {
            // a paper's sample draws by index from its whole split (ReAct's 7,405 HotpotQA questions): that split is
            // read once into memory to draw from; only the drawn questions are kept
            List<QaItem> sampled;
            try (Stream<QaItem> all = s) {
                sampled = spec.sample().select(all.toList());
            }
            s = sampled.stream();
        }
        return spec.limit() > 0 ? s.limit(spec.limit()) : s;
    }

    /** What kind of error failed a question: the model call's {@link dev.veracity.llm.ErrorKind}, else the exception's class. */
    static String kind(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof dev.veracity.llm.LlmException l) {
                return l.kind().name();
            }
        }
        return e.getClass().getSimpleName();
    }

    private static ObjectNode answer(Spec spec, QaItem item, LlmClient client, Map<ModelRole, LlmClient> models,
                                     QuestionTraces traces, String traceRun, List<Metric> metrics) {
        CallContext calls = CallContext.of(traceRun, item.id(), spec.method().name());
        MethodContext ctx = new MethodContext(client, calls, spec.dataset(), spec.profile().multiAnswer(), spec.options(),
                spec.retriever(), spec.embedder(), spec.pages(), models);
        // documents from the dataset, the index, or none (closed book); retrieval runs here, in the question's task
        DocumentSource.Prepared prepared = spec.documents().prepare(spec.method(), item);
        traces.begin(traceRun, item.id());
        MethodAnswer answer;
        List<CallRecord> made;
        try {
            answer = spec.method().answer(prepared.item(), ctx);
        } finally {
            made = traces.end(traceRun, item.id());
        }
        // an answer read from an output its token limit cut is not scored as an answer by default (Truncation)
        Truncation cut = Truncation.of(made, answer);
        if (cut.answer() && spec.truncated() == Truncation.Policy.FAIL) {
            throw cut.failure();
        }
        CallStats stats = CallStats.ofQuestion(made);
        List<String> gold = spec.profile().multiAnswer() ? item.goldTexts() : item.goldForms();
        ObjectNode o = JSON.createObjectNode();
        o.put("id", item.id());
        o.put("question", item.question());
        String type = item.metadata().get("question_type");
        if (type != null && !type.isBlank()) {
            o.put("question_type", type); // CRAG: the report and compare break the run down by it
        }
        o.put("prediction", answer.prediction());
        if (!answer.raw().isEmpty() && !answer.raw().equals(answer.prediction())) {
            o.put("raw", answer.raw()); // the output the prediction was read from
        }
        List<String> answers = !answer.answers().isEmpty() ? answer.answers()
                : spec.profile().multiAnswer() ? AnswerSetParser.parse(answer.prediction()) : List.of();
        ArrayNode answersNode = o.putArray("answers");
        answers.forEach(answersNode::add);
        ArrayNode goldNode = o.putArray("gold");
        gold.forEach(goldNode::add);
        ArrayNode wrongNode = o.putArray("wrong");
        item.wrong().forEach(wrongNode::add);
        // the metrics, and the judge (in TruthRL's order for the truthfulness metrics): AnswerScores
        AnswerScores scored = AnswerScores.of(metrics, spec.judge(), item, answer, gold, calls);
        scored.writeMetrics(o.putObject("metrics"));
        // what the method used, whether the model or the response cache answered: requests ("calls"), the samples
        // they asked for, tokens and model time; the cache's share apart; wall time and critical path as run
        o.put("calls", stats.calls());
        o.put("samples", stats.samples());
        o.put("prompt_tokens", stats.usedPromptTokens());
        o.put("completion_tokens", stats.usedCompletionTokens());
        o.put("cache_hits", stats.cacheHits());
        o.put("cached_samples", stats.cachedSamples());
        o.put("cached_tokens", stats.cachedPromptTokens() + stats.cachedCompletionTokens());
        o.put("wall_ms", millis(stats.wall()));
        o.put("critical_path_ms", millis(stats.criticalPath()));
        stats.modelTime().ifPresent(t -> o.put("model_ms", millis(t))); // absent: a cache entry without its latency
        o.put("trace_run", traceRun);
        o.set("roles", RoleStats.ofQuestion(made));
        if (cut.any()) {
            o.set("truncated", cut.json());
        }
        // what the method reports beyond the answer, each under its key's name (Reasoning Court's agents' answers as
        // "candidates": the report's judge scenarios read them)
        answer.details().writeTo(o);
        o.set("retrieval", spec.documents().resultLine(spec.method(), prepared, item.goldForms()));
        ArrayNode pf = o.putArray("parse_failures");
        answer.parseFailures().forEach(pf::add);
        if (!answer.signals().isEmpty()) {
            ObjectNode sig = o.putObject("signals");
            answer.signals().forEach(sig::put);
        }
        if (spec.judge() != null) {
            scored.writeJudge(o.putObject("judge"));
        }
        return o;
    }

    /** Aggregates over every line of the file (this run's and earlier ones'), re-scoring from the stored fields. */
    static ObjectNode summary(Spec spec, Iterable<JsonNode> lines, List<Metric> metrics, int errors, String traceRun,
                              Instant started) {
        return summary(spec, lines, metrics, errors, traceRun, started, null, null);
    }

    /**
     * The same, in one pass over {@code lines} holding one line at a time (every figure is folded as it goes); the
     * lines are folded into {@code retrieval} and {@code truncation} too, when given, for the caller's objects.
     */
    static ObjectNode summary(Spec spec, Iterable<JsonNode> lines, List<Metric> metrics, int errors, String traceRun,
                              Instant started, DocumentSource.RetrievalTally retrieval, Truncation.Tally truncation) {
        List<Metric.Tally> tallies = metrics.stream().map(Metric::tally).toList();
        long[] judge = new long[4]; // judged, correct, incorrect, unparseable samples
        String[] judgeName = {null};
        String[] judgeOrder = {null}; // "truthrl": the verdicts are TruthRL's order's, not the judge's alone
        Map<String, double[]> signals = new LinkedHashMap<>();
        String[] perQuestion = {"calls", "samples", "prompt_tokens", "completion_tokens", "wall_ms", "critical_path_ms",
                "model_ms"};
        double[] sums = new double[perQuestion.length];
        long[] present = new long[perQuestion.length]; // lines with the figure (a line written before it has none)
        double[] cached = new double[2]; // samples the cache served, samples, over lines with both
        long[] counts = new long[2]; // lines, parse failures
        RoleStats.RunTally roles = new RoleStats.RunTally();
        JudgeScenarios.Tally scenarios = metrics.isEmpty() ? null : new JudgeScenarios.Tally(metrics.getFirst());
        lines.forEach(l -> {
            counts[0]++;
            for (int i = 0; i < metrics.size(); i++) {
                tallies.get(i).add(LineScores.of(metrics.get(i), l)); // a judged outcome as the line stored it
            }
            if (l.has("judge")) {
                judge[0]++;
                String outcome = l.at("/judge/outcome").asText();
                judge[1] += outcome.equals("CORRECT") ? 1 : 0;
                judge[2] += outcome.equals("INCORRECT") ? 1 : 0;
                judge[3] += l.at("/judge/unparseable_samples").asLong();
                if (judgeName[0] == null) {
                    judgeName[0] = l.at("/judge/name").asText();
                    judgeOrder[0] = l.at("/judge/order").asText(null);
                }
            }
            l.path("signals").properties().forEach(e -> {
                double[] acc = signals.computeIfAbsent(e.getKey(), k -> new double[2]);
                acc[0] += e.getValue().asDouble();
                acc[1]++;
            });
            for (int i = 0; i < perQuestion.length; i++) {
                if (l.path(perQuestion[i]).isNumber()) {
                    sums[i] += l.get(perQuestion[i]).asDouble();
                    present[i]++;
                }
            }
            if (l.path("samples").isNumber() && l.path("cached_samples").isNumber()) {
                cached[0] += l.get("cached_samples").asDouble();
                cached[1] += l.get("samples").asDouble();
            }
            counts[1] += l.path("parse_failures").size();
            roles.add(l);
            if (scenarios != null) {
                scenarios.add(l);
            }
            if (retrieval != null) {
                retrieval.add(l);
            }
            if (truncation != null) {
                truncation.add(l);
            }
        });
        long n = counts[0];
        ObjectNode s = JSON.createObjectNode();
        s.put("method", spec.method().name());
        s.put("dataset", spec.dataset());
        s.put("data", spec.data().toString());
        if (spec.sample() != null) {
            s.put("sample", spec.sample().describe());
        }
        spec.labels().forEach(s::put);
        s.put("trace_run", traceRun);
        s.put("n", n);
        ObjectNode m = s.putObject("metrics");
        // How many questions each metric counted (a metric may skip some); a metric over none is null, not 0.
        ObjectNode mn = s.putObject("metrics_n");
        for (int i = 0; i < metrics.size(); i++) {
            Metric metric = metrics.get(i);
            Aggregate a = tallies.get(i).result();
            if (a.n() == 0) {
                m.putNull(metric.name());
            } else {
                m.put(metric.name(), a.mean());
            }
            mn.put(metric.name(), a.n());
            a.extras().forEach((k, v) -> m.put(metric.name() + "." + k, v.doubleValue()));
        }
        if (judge[0] > 0) {
            long correct = judge[1];
            long incorrect = judge[2];
            ObjectNode j = s.putObject("judge");
            j.put("name", judgeName[0]);
            if (judgeOrder[0] != null) {
                j.put("order", judgeOrder[0]);
            }
            // Unparseable verdicts are counted and left out, never scored as right or wrong.
            // With no parsed verdict there is no accuracy: null, never 0.0.
            if (correct + incorrect == 0) {
                j.putNull("accuracy");
            } else {
                j.put("accuracy", (double) correct / (correct + incorrect));
            }
            j.put("n", judge[0]);
            j.put("parsed", correct + incorrect);
            j.put("correct", correct);
            j.put("incorrect", incorrect);
            j.put("unparseable", judge[0] - correct - incorrect);
            j.put("unparseable_samples", judge[3]);
        }
        if (!signals.isEmpty()) {
            ObjectNode sig = s.putObject("signals");
            signals.forEach((k, acc) -> sig.put(k, acc[0] / acc[1]));
        }
        // each figure's mean over the lines that have it; which figures some lines lack, and how many have them
        ObjectNode partial = JSON.createObjectNode();
        for (int i = 0; i < perQuestion.length; i++) {
            String name = perQuestion[i] + "_per_question";
            if (n == 0) {
                s.put(name, 0);
            } else if (present[i] == 0) {
                s.putNull(name);
            } else {
                s.put(name, sums[i] / present[i]);
            }
            if (n > 0 && present[i] < n) {
                partial.put(perQuestion[i], present[i]);
            }
        }
        if (!partial.isEmpty()) {
            s.set("per_question_n", partial);
        }
        if (cached[1] > 0) {
            s.put("cached_share", cached[0] / cached[1]); // of the samples, those the response cache served
        } else {
            s.putNull("cached_share");
        }
        s.put("questions_at_once", spec.concurrency()); // wall time per question grows with it
        s.put("parse_failures", counts[1]);
        s.set("roles", roles.result());
        ObjectNode judgeScenarios = scenarios == null ? null : scenarios.result();
        if (judgeScenarios != null) {
            s.set("judge_scenarios", judgeScenarios);
        }
        s.put("errors", errors);
        s.put("started", started.toString());
        s.put("finished", Instant.now().toString());
        s.put("wall_seconds", Duration.between(started, Instant.now()).toMillis() / 1000.0);
        return s;
    }

    private static List<String> strings(JsonNode arr) {
        List<String> out = new ArrayList<>();
        arr.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static double millis(Duration d) {
        return Math.round(d.toNanos() / 1e4) / 100.0;
    }

    private static void write(Path file, ObjectNode json) {
        writeJson(file, json);
    }

    /**
     * Writes a run folder's JSON file (indented) through a temporary file moved in place, so that a kill leaves the
     * old file or the new one, never a part of one.
     */
    public static void writeJson(Path file, JsonNode json) {
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, JSON.writeValueAsString(json) + "\n");
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Labels as an ordered map, for {@link Spec#labels()}. */
    public static Map<String, String> labels(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }
}
