package dev.veracity.server;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.method.Truncation;
import dev.veracity.method.MethodAnswer;
import dev.veracity.methods.march.Verification;
import dev.veracity.qa.Document;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.CallStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a method did for one answer, beyond its text: the {@code veracity} field of the chat completion (of the finish
 * chunk when streaming) and the {@code X-Veracity-*} response headers of a non-streamed answer.
 * <pre>{@code
 * "veracity": {"method": "madam-rag+march+abstain", "upstream_model": "qwen", "answers": ["Paris"],
 *   "abstained": false, "verification": {"verdict": "passed", "claims": 1, "abstained_by_policy": false},
 *   "signals": {...}, "parse_failures": [], "raw": "...",
 *   (the method's details by name, as in results.jsonl: "candidates": [...] for Reasoning Court's agents, the others
 *    under "details": "march" (claims, Checker answers, verdicts), "madam" (rounds, kept, dropped), "court"
 *    (trajectories, judge), "c3po" (actions), "truthrl" (box, class), a plug-in's own)
 *   "truncated": {"samples": 1, "roles": {"solver": 1}, "answer": true}   (only when a token limit cut an output)
 *   "documents": {"source": "request", "count": 2, "ids": ["1", "2"]}, "options": {...}, "ignored": ["temperature"],
 *   "calls": {"count": 6, "samples": 6, "failed": 0, "retries": 0, "cache_hits": 0, "cached_samples": 0,
 *             "prompt_tokens": 812, "completion_tokens": 95, "cached_tokens": 0,
 *             "critical_path_ms": 412.3, "wall_ms": 415.0,
 *             "by_role": {"agent": {"calls": 2, "prompt_tokens": 300, "completion_tokens": 40, "latency_ms": 205.1}, ...}},
 *   "timing": {"server_ms": 418.9, "pipeline_ms": 416.2}}
 * }</pre>
 */
final class VeracityReport {

    /** Answers in a header are JSON with non-ASCII escaped, so the header stays ASCII; past this length they are cut. */
    static final int MAX_ANSWERS_HEADER = 2000;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectWriter ASCII_JSON = JSON.writer()
            .with(JsonWriteFeature.ESCAPE_NON_ASCII);

    private VeracityReport() {
    }

    /** The verdict of a MARCH verification in the signals, or null when the method did not verify. */
    static String verdict(MethodAnswer a) {
        return Verification.Status.ofSignals(a.signals()).map(Verification.Status::label).orElse(null);
    }

    /** Whether the answer is an abstention: by the method's own signal, or as core's classifier reads it. */
    static boolean abstained(MethodAnswer a) {
        return a.abstained();
    }

    static ObjectNode field(Pipeline.Outcome o, String upstreamModel, long serverNanos) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        MethodAnswer a = o.answer();
        ObjectNode v = f.objectNode();
        v.put("method", o.prepared().method().name());
        v.put("upstream_model", upstreamModel);
        ArrayNode answers = v.putArray("answers");
        a.answers().forEach(answers::add);
        v.put("abstained", abstained(a));
        String verdict = verdict(a);
        if (verdict != null) {
            ObjectNode ver = v.putObject("verification");
            ver.put("verdict", verdict);
            ver.put("claims", a.signals().getOrDefault("claims", 0.0).intValue());
            ver.put("abstained_by_policy", a.signals().getOrDefault("abstained_by_policy", 0.0) > 0);
        }
        ObjectNode signals = v.putObject("signals");
        a.signals().forEach(signals::put);
        ArrayNode failures = v.putArray("parse_failures");
        a.parseFailures().forEach(failures::add);
        // what the method reports beyond the answer, where results.jsonl has it: the Court's candidates in their field,
        // a plug-in's details under "details" (so none can replace a field written above)
        a.details().writeTo(v);
        if (!a.raw().isEmpty() && !a.raw().equals(a.prediction())) {
            v.put("raw", a.raw());
        }
        // outputs a token limit cut (finish reason length), as the result line's "truncated": whether the answer itself
        // was read from one, so a reader knows it may be cut short; absent when none was cut
        Truncation cut = Truncation.of(o.calls(), a);
        if (cut.any()) {
            v.set("truncated", JSON.valueToTree(dev.veracity.eval.results.ResultLine.Cut.of(cut)));
        }
        ObjectNode docs = v.putObject("documents");
        List<Document> given = o.prepared().item().documents();
        docs.put("source", o.prepared().documentSource());
        docs.put("count", given.size());
        ArrayNode ids = docs.putArray("ids");
        given.forEach(d -> ids.add(d.id()));
        // typed as the method declares them: numbers as numbers, booleans as booleans
        v.set("options", JSON.valueToTree(o.prepared().method().spec().typed(o.prepared().options())));
        ArrayNode ignored = v.putArray("ignored");
        o.prepared().ignored().forEach(ignored::add);
        v.set("calls", calls(o.calls(), o.stats()));
        ObjectNode timing = v.putObject("timing");
        timing.put("server_ms", millis(serverNanos));
        timing.put("pipeline_ms", millis(o.pipelineNanos()));
        return v;
    }

    private static ObjectNode calls(List<CallRecord> calls, CallStats stats) {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.put("count", stats.calls());
        c.put("samples", stats.samples()); // a request for n samples is n model calls in the papers' accounting
        c.put("failed", stats.failedCalls());
        c.put("retries", stats.retries());
        c.put("cache_hits", stats.cacheHits());
        c.put("cached_samples", stats.cachedSamples());
        // tokens the method used, whether the model or the response cache answered (eval's result lines count alike)
        c.put("prompt_tokens", stats.usedPromptTokens());
        c.put("completion_tokens", stats.usedCompletionTokens());
        c.put("cached_tokens", stats.cachedPromptTokens() + stats.cachedCompletionTokens());
        c.put("critical_path_ms", millis(stats.criticalPath().toNanos()));
        c.put("wall_ms", millis(stats.wall().toNanos()));
        ObjectNode byRole = c.putObject("by_role");
        for (Map.Entry<String, RoleTotals> e : byRole(calls).entrySet()) {
            RoleTotals t = e.getValue();
            byRole.putObject(e.getKey()).put("calls", t.calls).put("failed", t.failed).put("prompt_tokens", t.prompt)
                    .put("completion_tokens", t.completion).put("latency_ms", millis(t.latencyMicros * 1000));
        }
        return c;
    }

    private static final class RoleTotals {
        int calls;
        int failed;
        long prompt;
        long completion;
        long latencyMicros;
    }

    /** Calls per role, roles in natural order (agent-2 before agent-10), so identical answers report identically. */
    private static Map<String, RoleTotals> byRole(List<CallRecord> calls) {
        Map<String, RoleTotals> out = new java.util.TreeMap<>(VeracityReport::naturalOrder);
        calls.forEach(r -> {
            RoleTotals t = out.computeIfAbsent(r.context().role().isEmpty() ? "model" : r.context().role(),
                    k -> new RoleTotals());
            t.calls++;
            t.failed += r.failed() ? 1 : 0;
            t.prompt += r.promptTokens();
            t.completion += r.completionTokens();
            t.latencyMicros += Math.max(0, r.latencyMicros());
        });
        return out;
    }

    /** Text order, except that runs of digits compare as numbers. */
    static int naturalOrder(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i);
            char y = b.charAt(j);
            if (Character.isDigit(x) && Character.isDigit(y)) {
                int ei = i;
                int ej = j;
                while (ei < a.length() && Character.isDigit(a.charAt(ei))) {
                    ei++;
                }
                while (ej < b.length() && Character.isDigit(b.charAt(ej))) {
                    ej++;
                }
                String na = a.substring(i, ei).replaceFirst("^0+(?=.)", "");
                String nb = b.substring(j, ej).replaceFirst("^0+(?=.)", "");
                int c = na.length() != nb.length() ? Integer.compare(na.length(), nb.length()) : na.compareTo(nb);
                if (c != 0) {
                    return c;
                }
                i = ei;
                j = ej;
            } else {
                if (x != y) {
                    return Character.compare(x, y);
                }
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** The {@code X-Veracity-*} headers of a non-streamed answer (ASCII only). */
    static Map<String, String> headers(Pipeline.Outcome o, String upstreamModel, String requestId) {
        Map<String, String> h = new LinkedHashMap<>(streamHeaders(o.prepared().method().name(), upstreamModel, requestId));
        MethodAnswer a = o.answer();
        h.put("X-Veracity-Calls", Integer.toString(o.stats().calls()));
        h.put("X-Veracity-Tokens", Long.toString(o.stats().totalTokens()));
        h.put("X-Veracity-Critical-Path-Ms", Long.toString(o.stats().criticalPath().toMillis()));
        h.put("X-Veracity-Abstained", Boolean.toString(abstained(a)));
        String verdict = verdict(a);
        if (verdict != null) {
            h.put("X-Veracity-Verification", verdict);
        }
        List<String> roles = new ArrayList<>();
        byRole(o.calls()).forEach((role, t) -> roles.add(role + "=" + t.calls));
        h.put("X-Veracity-Roles", String.join(",", roles));
        h.put("X-Veracity-Answers", answersHeader(a.answers()));
        return h;
    }

    /** The headers a stream can send before its answer exists. */
    static Map<String, String> streamHeaders(String method, String upstreamModel, String requestId) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("X-Request-Id", requestId);
        h.put("X-Veracity-Method", method);
        h.put("X-Veracity-Upstream-Model", upstreamModel);
        return h;
    }

    /** The answers as a JSON array with non-ASCII escaped; the last ones dropped while it is too long. */
    static String answersHeader(List<String> answers) {
        List<String> kept = new ArrayList<>(answers);
        while (true) {
            String json;
            try {
                json = ASCII_JSON.writeValueAsString(kept);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                return "[]";
            }
            if (json.length() <= MAX_ANSWERS_HEADER || kept.isEmpty()) {
                return json.length() <= MAX_ANSWERS_HEADER ? json : "[]";
            }
            kept.removeLast();
        }
    }

    private static double millis(long nanos) {
        return Math.round(nanos / 1e4) / 100.0;
    }
}
