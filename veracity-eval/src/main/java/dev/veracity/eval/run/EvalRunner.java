package dev.veracity.eval.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.ResultsJson;
import dev.veracity.eval.results.RunConfiguration;
import dev.veracity.eval.results.Summary;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.data.Datasets;
import dev.veracity.eval.judge.Judge;
import dev.veracity.eval.metrics.Aggregate;
import dev.veracity.method.Truncation;
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
    /** How the results line reads the Court's "candidates" detail (veracity-eval does not see the methods' types). */
    private static final dev.veracity.method.DetailKey<List<ResultLine.Candidate>> CANDIDATES =
            dev.veracity.method.DetailKey.listOf("candidates", ResultLine.Candidate.class);

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
     * @param shard       the share of the selected questions this run answers ({@link Shard}), or null for all
     */
    public record Spec(QaMethod method, String dataset, Path data, int limit, Path outDir, int concurrency,
                       DatasetProfile profile, Map<String, String> options, Map<String, String> labels,
                       Retriever retriever, Embedder embedder, Judge judge, DocumentSource documents, RunConfiguration config,
                       PageSource pages, QuestionSample sample, Truncation.Policy truncated, Shard shard) {

        /** A spec over every selected question (no shard). */
        public Spec(QaMethod method, String dataset, Path data, int limit, Path outDir, int concurrency,
                    DatasetProfile profile, Map<String, String> options, Map<String, String> labels,
                    Retriever retriever, Embedder embedder, Judge judge, DocumentSource documents, RunConfiguration config,
                    PageSource pages, QuestionSample sample, Truncation.Policy truncated) {
            this(method, dataset, data, limit, outDir, concurrency, profile, options, labels, retriever, embedder, judge,
                    documents, config, pages, sample, truncated, null);
        }

        /** Whether the question is among this run's (its shard's, when sharded). */
        boolean answers(QaItem item) {
            return shard == null || shard.contains(item.id());
        }

        /** A spec whose answers read from a cut output fail ({@link Truncation.Policy#FAIL}, the default). */
        public Spec(QaMethod method, String dataset, Path data, int limit, Path outDir, int concurrency,
                    DatasetProfile profile, Map<String, String> options, Map<String, String> labels,
                    Retriever retriever, Embedder embedder, Judge judge, DocumentSource documents, RunConfiguration config,
                    PageSource pages, QuestionSample sample) {
            this(method, dataset, data, limit, outDir, concurrency, profile, options, labels, retriever, embedder, judge,
                    documents, config, pages, sample, Truncation.Policy.FAIL);
        }

        /** A spec over the file's questions in file order. */
        public Spec(QaMethod method, String dataset, Path data, int limit, Path outDir, int concurrency,
                    DatasetProfile profile, Map<String, String> options, Map<String, String> labels,
                    Retriever retriever, Embedder embedder, Judge judge, DocumentSource documents, RunConfiguration config,
                    PageSource pages) {
            this(method, dataset, data, limit, outDir, concurrency, profile, options, labels, retriever, embedder, judge,
                    documents, config, pages, null);
        }

        /** A spec without a page store. */
        public Spec(QaMethod method, String dataset, Path data, int limit, Path outDir, int concurrency,
                    DatasetProfile profile, Map<String, String> options, Map<String, String> labels,
                    Retriever retriever, Embedder embedder, Judge judge, DocumentSource documents, RunConfiguration config) {
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
            requireLabels(labels);
            documents = documents == null ? DocumentSource.dataset() : documents;
            truncated = truncated == null ? Truncation.Policy.FAIL : truncated;
        }
    }

    /** What a run did this time, for the progress display and the exit code. */
    public record Outcome(int total, int alreadyDone, int answered, List<String> failures, Summary summary) {
    }

    /**
     * Live progress: done of total, calls and tokens so far. Before the answering, while the dataset is read and its
     * questions counted, {@code total} is -1 and {@code done} the questions read so far ({@link #reading}).
     */
    public record Progress(int done, int total, long calls, long tokens) {

        /** The questions read and counted so far, before the answering. */
        public static Progress reading(int read) {
            return new Progress(read, -1, 0, 0);
        }

        /** Whether the dataset is still being read (the questions counted), before any is answered. */
        public boolean reading() {
            return total < 0;
        }
    }

    /** Routes each call's trace record to the question being answered, as well as to the store. */
    public static final class QuestionTraces implements TraceSink {
        private final TraceSink store;
        private final Map<String, List<CallRecord>> open = new ConcurrentHashMap<>();
        /** Per role, the distinct sampling settings its calls used (sample positions left out), for summary.json. */
        private final Map<String, java.util.Set<String>> sampling = new ConcurrentHashMap<>();
        /** Told of every call of a question being answered (the runner's admission ramp), or null. */
        private volatile Runnable onCall;

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
                Runnable listener = onCall;
                if (listener != null) {
                    listener.run();
                }
            }
        }

        /** The sampling settings seen so far, role by role (sorted), each as its JSON object. */
        Map<String, List<Map<String, Object>>> sampling() {
            Map<String, List<Map<String, Object>>> o = new java.util.TreeMap<>();
            sampling.forEach((role, set) -> o.put(role, set.stream().sorted().map(QuestionTraces::settings).toList()));
            return o;
        }

        /** Recorded settings as their JSON object (a text that is not one is kept as {@code {"raw": text}}). */
        @SuppressWarnings("unchecked")
        private static Map<String, Object> settings(String js) {
            try {
                return JSON.readValue(js, Map.class);
            } catch (IOException | RuntimeException e) {
                return Map.of("raw", js);
            }
        }

        static String withoutSamplePosition(String settings) {
            // the client writes its settings compactly with the sample position between two fields: cut out as text
            // (this runs for every call; a parse of each call's settings cost as much as the client's own record)
            // ({"n":N,"first_sample":K,...}: LlmClient.settingsOf); anything else is parsed
            String head = "{\"n\":";
            String field = ",\"first_sample\":";
            if (settings != null && settings.startsWith(head)) {
                int at = digits(settings, head.length());
                if (at > head.length() && settings.startsWith(field, at)) {
                    int end = digits(settings, at + field.length());
                    if (end > at + field.length() && end < settings.length() && settings.charAt(end) == ',') {
                        return settings.substring(0, at) + settings.substring(end);
                    }
                }
            }
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

        /** The end of the run of ASCII digits at {@code from}. */
        private static int digits(String s, int from) {
            int i = from;
            while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
            }
            return i;
        }

        void onCall(Runnable listener) {
            onCall = listener;
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
        // what the first line, the summary and the closing table cost Jackson is built beside the first model calls
        Thread.ofVirtual().name("results-json").start(dev.veracity.eval.results.ResultsJson::prepare);
        Map<ModelRole, LlmClient> models = ModelRole.bind(spec.method().spec(), clients);
        List<Metric> metrics = spec.profile().metrics().stream().map(n -> Metrics.byName(n, spec.options())).toList();
        // The dataset is streamed, never held: read for its first question, then to count, then to answer.
        QaItem first;
        progress.accept(Progress.reading(0)); // a large file (CRAG's pages) takes a while to read and count
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
                    QaItem item = it.next();
                    if (spec.answers(item)) { // another shard's question: another machine's
                        total++;
                        already += results.isDone(item.id()) ? 1 : 0;
                        progress.accept(Progress.reading(total));
                    }
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
            // Questions beyond the client's slots (eval admits four times as many, ConcurrencyLimit.questionsAtOnce)
            // start one per call answered or question finished: at the start every admitted question works before its
            // first call (reads, builds its pages: CPU while the JIT is cold), and all at once would only delay the
            // calls
            Semaphore ramp = new Semaphore(0);
            int freely = Math.min(spec.concurrency(), client.counters().limit()); // auto: its limit at the start
            traces.onCall(ramp::release);
            AtomicInteger unreachable = new AtomicInteger(); // consecutive questions lost to a server that does not answer
            java.util.concurrent.atomic.AtomicReference<Error> fatal = new java.util.concurrent.atomic.AtomicReference<>();
            int failedBefore = 0; // questions left unasked after a stop whose last record is a failure
            // question by question until the last question is admitted, then the longest chain of dependent calls
            // ahead first (EndOfRunRanking)
            EndOfRunRanking ranking = new EndOfRunRanking();
            List<LlmClient.Ranked> ranked = new ArrayList<>();
            java.util.stream.Stream.concat(Stream.of(client), models.values().stream()).distinct()
                    .forEach(c -> ranked.add(c.rankRun(traceRun, ranking)));
            int toAsk = items - already;
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
                 Stream<QaItem> s = slice(spec)) {
                int next = 0;
                int admitted = 0;
                for (Iterator<QaItem> it = s.iterator(); it.hasNext(); ) {
                    QaItem item = it.next();
                    int position = next++; // its place in the dataset's order: lines are written as questions finish
                    // (in a shard, its place among the whole run's questions: the merged run's rows are the unsharded's)
                    if (!spec.answers(item) || results.isDone(item.id())) {
                        continue;
                    }
                    boolean stopped = unreachable.get() >= STOP_AFTER_UNREACHABLE;
                    if (!ranking.ended() && toAsk - admitted <= 1) {
                        // the last question to admit: the run's end, ranked by chain ahead from its first call
                        ranking.end();
                    }
                    if (!stopped) {
                        slots.acquireUninterruptibly(); // then look again: the question before may just have failed
                        if (admitted++ >= freely) {
                            ramp.acquireUninterruptibly();
                        }
                        stopped = unreachable.get() >= STOP_AFTER_UNREACHABLE;
                        if (stopped) {
                            slots.release();
                        }
                    }
                    if (fatal.get() != null) {
                        break; // a question ran out of memory (its slot, taken above, is not needed any more)
                    }
                    if (stopped) {
                        // the server is down: keep what was done, ask nothing more
                        failedBefore += results.isFailed(item.id()) ? 1 : 0;
                        continue;
                    }
                    pool.submit(() -> {
                        try {
                            results.append(answer(spec, item, position, client, models, traces, traceRun, metrics,
                                    ranking));
                            done.incrementAndGet();
                            unreachable.set(0);
                        } catch (RuntimeException e) {
                            if (unreachable(e)) {
                                unreachable.incrementAndGet();
                            }
                            String reason = ResultsFile.oneLine(String.valueOf(e.getMessage()));
                            failures.add(item.id() + ": " + reason);
                            // a row with its reason: shown by report and compare, asked again by the next run
                            results.appendFailure(item.id(), position, item.question(), kind(e), reason);
                        } catch (Error e) {
                            // an OutOfMemoryError is the run's, not the question's: no row, no more questions asked,
                            // and thrown to the caller below (a Future nobody reads would have swallowed it)
                            fatal.compareAndSet(null, e);
                        } finally {
                            ranking.done(item.id());
                            slots.release();
                            ramp.release();
                            report.run();
                        }
                    });
                }
            } finally {
                traces.onCall(null);
                ranked.forEach(LlmClient.Ranked::close);
            }
            if (fatal.get() != null) {
                throw fatal.get();
            }
            traces.flush();
            DocumentSource.RetrievalTally retrieval = spec.documents().tally(spec.method(), datasetHasDocuments);
            TruncationTally truncation = new TruncationTally();
            Summary.Builder summary = summary(spec, results.answered(), metrics, failures.size(), traceRun, started,
                    retrieval, truncation).toBuilder();
            // every question of this run's slice whose last record is a failure (this run's and earlier runs' alike)
            summary.failed = failures.size() + failedBefore;
            // the slice this run was asked to answer, so that a reader judges the run from its own record (a recipe:
            // is it the paper's split, was it cut short): its --limit when one was given, and its question count
            summary.limit = spec.limit() > 0 ? spec.limit() : null;
            summary.questions = items;
            summary.truncated = truncation.result(results.failures().stream()
                    .filter(f -> ErrorKind.TRUNCATED.name().equals(f.failedKind())).count(), spec.truncated());
            Summary.Retrieval r = retrieval.result();
            String references = Datasets.spec(spec.dataset()).references();
            if (r.source().equals("dataset") && !references.isEmpty()) {
                r = r.withReferences(references); // which documents the dataset's questions came with
            }
            summary.retrieval = r;
            summary.sampling = traces.sampling();
            summary.build = dev.veracity.config.BuildInfo.current().asMap();
            summary.config = spec.config();
            summary.concurrencyLimit = adaptiveLimit(client);
            summary.endpoints = endpoints(client);
            ResultsJson.write(spec.outDir().resolve("summary.json"), summary.build());
            if (unreachable.get() >= STOP_AFTER_UNREACHABLE) {
                failures.add("stopped after " + STOP_AFTER_UNREACHABLE + " questions in a row failed to reach the model"
                        + " server (connection failures or timeouts); what was done is kept: run the same command to resume");
                summary.stopped = "server unreachable";
                ResultsJson.write(spec.outDir().resolve("summary.json"), summary.build());
            }
            return new Outcome(items, already, done.get() - already, List.copyOf(failures), summary.build());
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

    private static ResultLine answer(Spec spec, QaItem item, int position, LlmClient client, Map<ModelRole, LlmClient> models,
                                     QuestionTraces traces, String traceRun, List<Metric> metrics,
                                     EndOfRunRanking ranking) {
        // its place in the dataset: the client serves the calls of earlier questions first (CallContext.order)
        CallContext calls = CallContext.of(traceRun, item.id(), spec.method().name()).order(position);
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
        ranking.answered(made);
        // an answer read from an output its token limit cut is not scored as an answer by default (Truncation)
        Truncation cut = Truncation.of(made, answer);
        if (cut.answer() && spec.truncated() == Truncation.Policy.FAIL) {
            throw cut.failure();
        }
        CallStats stats = CallStats.ofQuestion(made);
        List<String> gold = spec.profile().multiAnswer() ? item.goldTexts() : item.goldForms();
        String type = item.metadata().get("question_type");
        List<String> answers = !answer.answers().isEmpty() ? answer.answers()
                : spec.profile().multiAnswer() ? AnswerSetParser.parse(answer.prediction()) : List.of();
        // the metrics, and the judge (in TruthRL's order for the truthfulness metrics): AnswerScores
        AnswerScores scored = AnswerScores.of(metrics, spec.judge(), item, answer, gold, calls);
        // what the method reports beyond the answer (MethodAnswer.details, each under its key's name): the answers of the
        // agents it chose among ("candidates", Reasoning Court's) in their own typed field, which the judge scenarios
        // and the report read; a plug-in's own details under "details"
        ObjectNode written = JSON.createObjectNode();
        answer.details().writeTo(written); // the one rule serve's veracity object follows too
        List<ResultLine.Candidate> candidates = CANDIDATES.read(written).filter(l -> !l.isEmpty()).orElse(null);
        ObjectNode others = written.has(dev.veracity.method.Details.FIELD)
                ? (ObjectNode) written.get(dev.veracity.method.Details.FIELD) : JSON.createObjectNode();
        if (candidates == null && written.has(CANDIDATES.name())) {
            others.set(CANDIDATES.name(), written.get(CANDIDATES.name())); // not the Court's shape: kept, not dropped
        }
        Map<String, Object> details = others.isEmpty() ? Map.of() : ResultsJson.convert(others, Map.class);
        // what the method used, whether the model or the response cache answered: requests ("calls"), the samples
        // they asked for, tokens and model time; the cache's share apart; wall time and critical path as run
        return new ResultLine(null, item.id(), position, item.question(),
                type != null && !type.isBlank() ? type : null, // CRAG: the report and compare break the run down by it
                answer.prediction(),
                !answer.raw().isEmpty() && !answer.raw().equals(answer.prediction()) ? answer.raw() : null,
                answers, gold, item.wrong(), scored.metrics(),
                (long) stats.calls(), (long) stats.samples(), (long) stats.usedPromptTokens(),
                (long) stats.usedCompletionTokens(), (long) stats.cacheHits(), (long) stats.cachedSamples(),
                (long) (stats.cachedPromptTokens() + stats.cachedCompletionTokens()),
                millis(stats.wall()), millis(stats.criticalPath()),
                stats.modelTime().map(EvalRunner::millis).orElse(null), // absent: a cache entry without its latency
                traceRun, RoleStats.ofQuestion(made), cut.any() ? ResultLine.Cut.of(cut) : null, candidates,
                spec.documents().resultLine(spec.method(), prepared, item.goldForms()),
                answer.parseFailures(), answer.signals().isEmpty() ? null : answer.signals(),
                spec.judge() != null ? scored.judge() : null, null, null, null, details.isEmpty() ? null : details);
    }

    /** Aggregates over every line of the file (this run's and earlier ones'), re-scoring from the stored fields. */
    static Summary summary(Spec spec, Iterable<ResultLine> lines, List<Metric> metrics, int errors, String traceRun,
                           Instant started) {
        return summary(spec, lines, metrics, errors, traceRun, started, null, null);
    }

    /**
     * The same, in one pass over {@code lines} holding one line at a time (every figure is folded as it goes); the
     * lines are folded into {@code retrieval} and {@code truncation} too, when given, for the caller's objects.
     */
    static Summary summary(Spec spec, Iterable<ResultLine> lines, List<Metric> metrics, int errors, String traceRun,
                           Instant started, DocumentSource.RetrievalTally retrieval, TruncationTally truncation) {
        Summary.Builder s = fold(lines, metrics, retrieval, truncation);
        s.method = spec.method().name();
        s.dataset = spec.dataset();
        s.data = spec.data().toString();
        s.sample = spec.sample() == null ? null : spec.sample().describe();
        labels(s, spec.labels());
        s.traceRun = traceRun;
        s.questionsAtOnce = spec.concurrency(); // wall time per question grows with it
        s.errors = errors;
        s.started = started.toString();
        s.finished = Instant.now().toString();
        s.wallSeconds = Duration.between(started, Instant.now()).toMillis() / 1000.0;
        return s.build();
    }

    /**
     * What {@code summary.json} folds from the result lines, in one pass holding one line at a time: the question
     * count, each metric's mean and n, the judge's tally, signals, per-question figures, the cache's share, parse
     * failures, per-role figures and the judge scenarios; the lines go into {@code retrieval} and {@code truncation}
     * too, when given. Every figure is recomputed from the lines, never combined from other summaries' means: the one
     * fold of a run and of a merge of its shards ({@link ShardMerge}).
     */
    static Summary.Builder fold(Iterable<ResultLine> lines, List<Metric> metrics, DocumentSource.RetrievalTally retrieval,
                                TruncationTally truncation) {
        List<Metric.Tally> tallies = metrics.stream().map(Metric::tally).toList();
        long[] judge = new long[4]; // judged, correct, incorrect, unparseable samples
        String[] judgeName = {null};
        String[] judgeOrder = {null}; // "truthrl": the verdicts are TruthRL's order's, not the judge's alone
        Map<String, double[]> signals = new LinkedHashMap<>();
        List<java.util.function.Function<ResultLine, Number>> perQuestion = List.of(ResultLine::calls,
                ResultLine::samples, ResultLine::promptTokens, ResultLine::completionTokens, ResultLine::wallMs,
                ResultLine::criticalPathMs, ResultLine::modelMs);
        List<String> perQuestionNames = List.of("calls", "samples", "prompt_tokens", "completion_tokens", "wall_ms",
                "critical_path_ms", "model_ms");
        double[] sums = new double[perQuestion.size()];
        long[] present = new long[perQuestion.size()]; // lines with the figure (a line written before it has none)
        double[] cached = new double[2]; // samples the cache served, samples, over lines with both
        long[] counts = new long[2]; // lines, parse failures
        RoleStats.RunTally roles = new RoleStats.RunTally();
        JudgeScenarios.Tally scenarios = metrics.isEmpty() ? null : new JudgeScenarios.Tally(metrics.getFirst());
        lines.forEach(l -> {
            counts[0]++;
            for (int i = 0; i < metrics.size(); i++) {
                tallies.get(i).add(LineScores.of(metrics.get(i), l)); // a judged outcome as the line stored it
            }
            if (l.judge() != null) {
                judge[0]++;
                String outcome = String.valueOf(l.judge().outcome());
                judge[1] += outcome.equals("CORRECT") ? 1 : 0;
                judge[2] += outcome.equals("INCORRECT") ? 1 : 0;
                judge[3] += l.judge().unparseableSamples() == null ? 0 : l.judge().unparseableSamples();
                if (judgeName[0] == null) {
                    judgeName[0] = l.judge().name();
                    judgeOrder[0] = l.judge().order();
                }
            }
            l.signalsOrEmpty().forEach((k, v) -> {
                if (v != null) {
                    double[] acc = signals.computeIfAbsent(k, key -> new double[2]);
                    acc[0] += v;
                    acc[1]++;
                }
            });
            for (int i = 0; i < perQuestion.size(); i++) {
                Number v = perQuestion.get(i).apply(l);
                if (v != null) {
                    sums[i] += v.doubleValue();
                    present[i]++;
                }
            }
            if (l.samples() != null && l.cachedSamples() != null) {
                cached[0] += l.cachedSamples();
                cached[1] += l.samples();
            }
            counts[1] += l.parseFailures() == null ? 0 : l.parseFailures().size();
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
        Summary.Builder s = new Summary.Builder();
        s.n = n;
        // How many questions each metric counted (a metric may skip some); a metric over none is null, not 0.
        s.metrics = new LinkedHashMap<>();
        s.metricsN = new LinkedHashMap<>();
        for (int i = 0; i < metrics.size(); i++) {
            Metric metric = metrics.get(i);
            Aggregate a = tallies.get(i).result();
            s.metrics.put(metric.name(), a.n() == 0 ? null : a.mean());
            s.metricsN.put(metric.name(), (long) a.n());
            a.extras().forEach((k, v) -> s.metrics.put(metric.name() + "." + k, v.doubleValue()));
        }
        if (judge[0] > 0) {
            long correct = judge[1];
            long incorrect = judge[2];
            // Unparseable verdicts are counted and left out, never scored as right or wrong.
            // With no parsed verdict there is no accuracy: null, never 0.0.
            s.judge = new Summary.Judge(judgeName[0], judgeOrder[0],
                    correct + incorrect == 0 ? null : (double) correct / (correct + incorrect), judge[0],
                    correct + incorrect, correct, incorrect, judge[0] - correct - incorrect, judge[3]);
        }
        if (!signals.isEmpty()) {
            s.signals = new LinkedHashMap<>();
            signals.forEach((k, acc) -> s.signals.put(k, acc[0] / acc[1]));
        }
        // each figure's mean over the lines that have it; which figures some lines lack, and how many have them
        Double[] means = new Double[perQuestion.size()];
        Map<String, Long> partial = new LinkedHashMap<>();
        for (int i = 0; i < perQuestion.size(); i++) {
            means[i] = n == 0 ? Double.valueOf(0) : present[i] == 0 ? null : Double.valueOf(sums[i] / present[i]);
            if (n > 0 && present[i] < n) {
                partial.put(perQuestionNames.get(i), present[i]);
            }
        }
        s.callsPerQuestion = means[0];
        s.samplesPerQuestion = means[1];
        s.promptTokensPerQuestion = means[2];
        s.completionTokensPerQuestion = means[3];
        s.wallMsPerQuestion = means[4];
        s.criticalPathMsPerQuestion = means[5];
        s.modelMsPerQuestion = means[6];
        s.perQuestionN = partial.isEmpty() ? null : partial;
        // of the samples, those the response cache served
        s.cachedShare = cached[1] > 0 ? cached[0] / cached[1] : null;
        s.parseFailures = counts[1];
        s.roles = roles.result();
        s.judgeScenarios = scenarios == null ? null : scenarios.result();
        return s;
    }

    /** Where an adaptive ({@code auto}) limit of the client went, or null for a fixed one. */
    static Summary.AdaptiveLimit adaptiveLimit(LlmClient client) {
        if (!client.concurrency().adaptive()) {
            return null;
        }
        var c = client.counters();
        return new Summary.AdaptiveLimit(c.limit(), c.lowestLimit(), c.highestLimit(), c.overloadDrops());
    }

    /** What each model server of a client over several did, or null for a client of one. */
    static List<Summary.Endpoint> endpoints(LlmClient client) {
        var servers = client.endpoints();
        return servers.size() < 2 ? null : servers.stream().map(e -> new Summary.Endpoint(e.endpoint(), e.attempts(), e.answered(), e.failures(), e.ejections(), e.returns())).toList();
    }

    /** The labels {@code summary.json} has a field for ({@link Spec#labels()}). */
    public static final java.util.Set<String> LABELS = java.util.Set.of("model", "llm_base_url", "concurrency",
            "timeout_seconds", "cache", "bench", "demo");

    /** Refuses a label {@code summary.json} has no field for: a caller's mistake, said before any question is asked. */
    public static void requireLabels(Map<String, String> labels) {
        for (String k : labels.keySet()) {
            if (!LABELS.contains(k)) {
                throw new IllegalStateException("summary.json has no label '" + k + "' (" + String.join(", ",
                        new java.util.TreeSet<>(LABELS)) + ")");
            }
        }
    }

    /** The labels a caller gave ({@link Spec#labels()}: model, server, client settings), each in its field. */
    private static void labels(Summary.Builder s, Map<String, String> labels) {
        labels.forEach((k, v) -> {
            switch (k) {
                case "model" -> s.model = v;
                case "llm_base_url" -> s.llmBaseUrl = v;
                case "concurrency" -> s.concurrency = v.equals("auto") ? null : Integer.valueOf(v); // auto: concurrency_limit
                case "timeout_seconds" -> s.timeoutSeconds = Long.valueOf(v);
                case "cache" -> s.cache = v;
                case "bench" -> s.bench = v;
                case "demo" -> s.demo = v;
                // a caller's mistake, not the user's: said before any question is asked (Spec checks the labels)
                default -> throw new IllegalStateException("summary.json has no label '" + k + "' (model,"
                        + " llm_base_url, concurrency, timeout_seconds, cache, bench, demo)");
            }
        });
    }

    private static double millis(Duration d) {
        return Math.round(d.toNanos() / 1e4) / 100.0;
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
