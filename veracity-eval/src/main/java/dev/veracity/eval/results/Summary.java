package dev.veracity.eval.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/**
 * {@code summary.json}: an eval run folded from every line of its {@code results.jsonl} (metrics and their counts, the
 * judge's tally, signals, per-question costs, per-role figures), with what it ran (method, dataset, model, the
 * recorded {@link RunConfiguration}) and how it went (failed questions, the slice, truncated outputs, retrieval). A
 * field a run does not have is null and not written, except the per-question figures and {@code cached_share}, which
 * are written as null when no line had them. Summaries of earlier runs lack the fields added since.
 *
 * @param schemaVersion {@link dev.veracity.schema.SchemaVersion} (null in files written before it)
 * @param model         the model asked, and the labels after it: its server, the client's concurrency, timeout and
 *                      cache mode, a bench's name, what the demo ran on ({@code demo}: the simulator or a server)
 * @param concurrencyLimit with {@code --concurrency auto} (then {@code concurrency} is absent): the limit it settled
 *                      on (where it stood at the end), the lowest and highest it went, and the attempts the server
 *                      turned away for load
 * @param endpoints     with several model servers ({@code --llm-base-url A,B,...}): what each did, in the order given
 * @param n             the answered questions
 * @param metrics       each metric's mean (null over no question), and its extra figures as {@code name.figure}
 * @param metricsN      the questions each metric counted
 * @param perQuestionN  of the per-question figures that some lines lack, how many lines have each
 * @param cachedShare   the samples the response cache served, of all samples
 * @param judgeScenarios Reasoning Court's judge scenarios
 * @param errors        questions that failed in this run; {@code failed} those whose last record is a failure
 * @param limit         the run's {@code --limit}; {@code questions} the slice it was asked to answer
 * @param sampling      per role, the distinct sampling settings its calls used
 * @param build         the Veracity build that wrote it
 * @param stopped       why the run stopped early (the server was unreachable)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Summary(Integer schemaVersion,
                      String method,
                      String dataset,
                      String data,
                      String sample,
                      String model,
                      String llmBaseUrl,
                      Integer concurrency,
                      AdaptiveLimit concurrencyLimit,
                      List<Endpoint> endpoints,
                      Long timeoutSeconds,
                      String cache,
                      String bench,
                      String demo,
                      String traceRun,
                      Long n,
                      @JsonInclude(value = JsonInclude.Include.NON_NULL, content = JsonInclude.Include.ALWAYS) Map<String, Double> metrics,
                      Map<String, Long> metricsN,
                      Judge judge,
                      Map<String, Double> signals,
                      @JsonInclude(JsonInclude.Include.ALWAYS) Double callsPerQuestion,
                      @JsonInclude(JsonInclude.Include.ALWAYS) Double samplesPerQuestion,
                      @JsonInclude(JsonInclude.Include.ALWAYS) Double promptTokensPerQuestion,
                      @JsonInclude(JsonInclude.Include.ALWAYS) Double completionTokensPerQuestion,
                      @JsonInclude(JsonInclude.Include.ALWAYS) Double wallMsPerQuestion,
                      @JsonInclude(JsonInclude.Include.ALWAYS) Double criticalPathMsPerQuestion,
                      @JsonInclude(JsonInclude.Include.ALWAYS) Double modelMsPerQuestion,
                      Map<String, Long> perQuestionN,
                      @JsonInclude(JsonInclude.Include.ALWAYS) Double cachedShare,
                      Integer questionsAtOnce,
                      Long parseFailures,
                      Map<String, Role> roles,
                      Scenarios judgeScenarios,
                      Integer errors,
                      String started,
                      String finished,
                      Double wallSeconds,
                      Integer failed,
                      Integer limit,
                      Integer questions,
                      Truncated truncated,
                      Retrieval retrieval,
                      Map<String, List<Map<String, Object>>> sampling,
                      Map<String, Object> build,
                      RunConfiguration config,
                      String stopped) {

    /** The metric means by name, or none. */
    public Map<String, Double> metricsOrEmpty() {
        return metrics == null ? Map.of() : metrics;
    }

    /**
     * The mean of a per-question figure of the result lines, by the lines' field name ({@code calls}, {@code samples},
     * {@code prompt_tokens}, {@code completion_tokens}, {@code wall_ms}, {@code critical_path_ms}, {@code model_ms}),
     * or null when the summary has none.
     */
    public Double perQuestion(String field) {
        return switch (field) {
            case "calls" -> callsPerQuestion;
            case "samples" -> samplesPerQuestion;
            case "prompt_tokens" -> promptTokensPerQuestion;
            case "completion_tokens" -> completionTokensPerQuestion;
            case "wall_ms" -> wallMsPerQuestion;
            case "critical_path_ms" -> criticalPathMsPerQuestion;
            case "model_ms" -> modelMsPerQuestion;
            default -> throw new IllegalArgumentException("summary.json has no per-question figure of '" + field + "'");
        };
    }

    /** The JSON tree of this Summary as it is written (for printing it, and for tests of the file's shape). */
    public com.fasterxml.jackson.databind.JsonNode toJson() {
        return ResultsJson.tree(this);
    }

    /** The signals by name, or none. */
    public Map<String, Double> signalsOrEmpty() {
        return signals == null ? Map.of() : signals;
    }

    /**
     * Where {@code --concurrency auto} took the client's limit in a run: where it stood at the end ({@code settled}),
     * the lowest and highest it went, and the attempts the server turned away for load (429, 503, timeouts), each of
     * which cut it and was retried.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record AdaptiveLimit(int settled, int lowest, int highest, long overloadDrops) {
    }

    /**
     * One model server of a run over several (its backend id, as the traces' {@code endpoint} names it): the attempts
     * sent to it, those it answered, those that failed for the
     * server's own reasons (connection, 5xx, timeout), how often it was taken out and how often a probe brought it back.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Endpoint(String endpoint, long attempts, long answered, long failures, long ejections, long returns) {
    }

    /** A builder holding this summary's fields, to change some. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.schemaVersion = schemaVersion;
        b.method = method;
        b.dataset = dataset;
        b.data = data;
        b.sample = sample;
        b.model = model;
        b.llmBaseUrl = llmBaseUrl;
        b.concurrency = concurrency;
        b.concurrencyLimit = concurrencyLimit;
        b.endpoints = endpoints;
        b.timeoutSeconds = timeoutSeconds;
        b.cache = cache;
        b.bench = bench;
        b.demo = demo;
        b.traceRun = traceRun;
        b.n = n;
        b.metrics = metrics;
        b.metricsN = metricsN;
        b.judge = judge;
        b.signals = signals;
        b.callsPerQuestion = callsPerQuestion;
        b.samplesPerQuestion = samplesPerQuestion;
        b.promptTokensPerQuestion = promptTokensPerQuestion;
        b.completionTokensPerQuestion = completionTokensPerQuestion;
        b.wallMsPerQuestion = wallMsPerQuestion;
        b.criticalPathMsPerQuestion = criticalPathMsPerQuestion;
        b.modelMsPerQuestion = modelMsPerQuestion;
        b.perQuestionN = perQuestionN;
        b.cachedShare = cachedShare;
        b.questionsAtOnce = questionsAtOnce;
        b.parseFailures = parseFailures;
        b.roles = roles;
        b.judgeScenarios = judgeScenarios;
        b.errors = errors;
        b.started = started;
        b.finished = finished;
        b.wallSeconds = wallSeconds;
        b.failed = failed;
        b.limit = limit;
        b.questions = questions;
        b.truncated = truncated;
        b.retrieval = retrieval;
        b.sampling = sampling;
        b.build = build;
        b.config = config;
        b.stopped = stopped;
        return b;
    }

    /** The judge's tally over the lines it judged; {@code accuracy} is null when no verdict could be read. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Judge(String name, String order, @JsonInclude(JsonInclude.Include.ALWAYS) Double accuracy, Long n,
                        Long parsed, Long correct, Long incorrect, Long unparseable, Long unparseableSamples) {
    }

    /** One agent role's calls, samples, seconds and model seconds per question. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Role(Double callsPerQuestion, Double samplesPerQuestion, Double secondsPerQuestion,
                       Double modelSecondsPerQuestion) {
    }

    /**
     * Outputs a token limit cut: answered questions with one, cut samples, answers scored although read from one, the
     * questions failed for it, and the policy.
     */
    public record Truncated(long questions, long samples, long answers, long failed, String policy) {
    }

    /**
     * Where the run's documents came from ({@code source}: dataset, index or none): the index, its corpus checksum,
     * {@code k} and search mode; the answer recall over the questions with gold answers; search time; the dataset's
     * references.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Retrieval(String source, String index, String corpusSha256, Integer k, String mode,
                            Boolean replacesDatasetDocuments, String why, Double answerRecall, Double answerRecallAtK,
                            Long questionsWithGold, Double msPerQuestion, String references) {

        /** The same record without the figures folded from the lines (recall, search time). */
        public Retrieval withoutFigures() {
            return new Retrieval(source, index, corpusSha256, k, mode, replacesDatasetDocuments, why, null, null, null,
                    null, references);
        }

        /** The same record naming the dataset's references. */
        public Retrieval withReferences(String references) {
            return new Retrieval(source, index, corpusSha256, k, mode, replacesDatasetDocuments, why, answerRecall,
                    answerRecallAtK, questionsWithGold, msPerQuestion, references);
        }
    }

    /**
     * Reasoning Court's Table 3: the judge's accuracy by what its agents answered, by the run's headline
     * {@code metric} (see {@code JudgeScenarios}).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Scenarios(String metric, Scenario oneCorrect, Scenario allWrongDifferent, Scenario allWrongSame,
                            Scenario allCorrect) {

        /** The scenarios in the paper's order, by their names. */
        public Map<String, Scenario> byName() {
            Map<String, Scenario> m = new java.util.LinkedHashMap<>();
            m.put("one_correct", oneCorrect);
            m.put("all_wrong_different", allWrongDifferent);
            m.put("all_wrong_same", allWrongSame);
            m.put("all_correct", allCorrect);
            return m;
        }
    }

    /** A scenario's questions, the correct final answers among them, and their share (null over none). */
    public record Scenario(long cases, long correct, @JsonInclude(JsonInclude.Include.ALWAYS) Double accuracy) {
    }

    /** A summary built field by field (the runner's fold, a reader's partial view). */
    public static final class Builder {
        public Integer schemaVersion;
        public String method;
        public String dataset;
        public String data;
        public String sample;
        public String model;
        public String llmBaseUrl;
        public Integer concurrency;
        public AdaptiveLimit concurrencyLimit;
        public List<Endpoint> endpoints;
        public Long timeoutSeconds;
        public String cache;
        public String bench;
        public String demo;
        public String traceRun;
        public Long n;
        public Map<String, Double> metrics;
        public Map<String, Long> metricsN;
        public Judge judge;
        public Map<String, Double> signals;
        public Double callsPerQuestion;
        public Double samplesPerQuestion;
        public Double promptTokensPerQuestion;
        public Double completionTokensPerQuestion;
        public Double wallMsPerQuestion;
        public Double criticalPathMsPerQuestion;
        public Double modelMsPerQuestion;
        public Map<String, Long> perQuestionN;
        public Double cachedShare;
        public Integer questionsAtOnce;
        public Long parseFailures;
        public Map<String, Role> roles;
        public Scenarios judgeScenarios;
        public Integer errors;
        public String started;
        public String finished;
        public Double wallSeconds;
        public Integer failed;
        public Integer limit;
        public Integer questions;
        public Truncated truncated;
        public Retrieval retrieval;
        public Map<String, List<Map<String, Object>>> sampling;
        public Map<String, Object> build;
        public RunConfiguration config;
        public String stopped;

        public Summary build() {
            return new Summary(schemaVersion, method, dataset, data, sample, model, llmBaseUrl, concurrency, concurrencyLimit, endpoints, timeoutSeconds, cache, bench, demo, traceRun, n, metrics, metricsN, judge, signals, callsPerQuestion, samplesPerQuestion, promptTokensPerQuestion, completionTokensPerQuestion, wallMsPerQuestion, criticalPathMsPerQuestion, modelMsPerQuestion, perQuestionN, cachedShare, questionsAtOnce, parseFailures, roles, judgeScenarios, errors, started, finished, wallSeconds, failed, limit, questions, truncated, retrieval, sampling, build, config, stopped);
        }
    }
}
