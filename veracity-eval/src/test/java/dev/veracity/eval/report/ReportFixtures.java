package dev.veracity.eval.report;

import dev.veracity.trace.CallContext;
import dev.veracity.trace.CallRecord;
import dev.veracity.trace.TraceStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Fake run directories as the eval runner writes them. */
final class ReportFixtures {

    static final String HOSTILE = "<script>alert(1)</script>";
    static final String HOSTILE_ID = "../../etc/<b>passwd";

    private ReportFixtures() {
    }

    /**
     * A run of {@code right.length} questions {@code q0}, {@code q1}, ... of {@code dataset}, scored on em and f1:
     * question k is answered right (its prediction is its gold answer) when {@code right[k]}, else wrong. The lines
     * are written in {@code finishOrder} (the order an eval's questions finished), each with its {@code position};
     * the questions in {@code parseFailures} have one, those in {@code failed} are failure records instead of answers.
     */
    static Path scripted(Path root, String name, String method, String dataset, boolean[] right, int[] finishOrder,
                         java.util.Set<Integer> parseFailures, java.util.Set<Integer> failed) throws IOException {
        Path dir = Files.createDirectories(root.resolve(name));
        StringBuilder lines = new StringBuilder();
        int answered = 0;
        int correct = 0;
        for (int k : finishOrder) {
            if (failed.contains(k)) {
                lines.append("{\"id\": \"q%d\", \"position\": %d, \"question\": \"Question %d?\", \"failed\": \"HTTP 400: context length exceeded\", \"failed_kind\": \"BAD_REQUEST\"}\n"
                        .formatted(k, k, k));
                continue;
            }
            answered++;
            correct += right[k] ? 1 : 0;
            lines.append(("{\"id\": \"q%d\", \"position\": %d, \"question\": \"Question %d?\", \"prediction\": \"%s\","
                    + " \"gold\": [\"answer %d\"], \"metrics\": {\"em\": %s, \"f1\": %s}, \"calls\": %d, \"wall_ms\": 10.0,"
                    + " \"parse_failures\": [%s]}\n").formatted(k, k, k, right[k] ? "answer " + k : "wrong " + k, k,
                    right[k] ? "1.0" : "0.0", right[k] ? "1.0" : "0.0", 1 + k % 3,
                    parseFailures.contains(k) ? "\"no answer in output\"" : ""));
        }
        Files.writeString(dir.resolve("results.jsonl"), lines);
        double share = answered == 0 ? 0 : (double) correct / answered;
        Files.writeString(dir.resolve("summary.json"), """
                {"method": "%s", "dataset": "%s", "model": "m", "n": %d, "metrics": {"em": %s, "f1": %s},
                 "calls_per_question": 2.0, "parse_failures": %d, "failed": %d,
                 "config": {"method": "%s", "method_options": {"k": "3"}, "data": "/data/%s.jsonl", "model": "m"}}
                """.formatted(method, dataset, answered, share, share, parseFailures.size(), failed.size(), method,
                dataset));
        return dir;
    }

    /**
     * A run: summary.json, results.jsonl (three questions and a truncated last line) and, when {@code traces},
     * a traces.db with calls for the first two questions, one of them hostile.
     */
    static Path run(Path root, String name, String method, String metricsJson, boolean traces) throws IOException {
        Path dir = Files.createDirectories(root.resolve(name));
        String runId = "run-" + name;
        Files.writeString(dir.resolve("summary.json"), """
                {"method": "%s", "dataset": "ramdocs", "data": "/data/ramdocs.jsonl", "model": "m",
                 "llm_base_url": "http://localhost:8080/v1", "trace_run": "%s", "n": 3,
                 "metrics": %s, "calls_per_question": %s, "prompt_tokens_per_question": 812.2,
                 "completion_tokens_per_question": 96.1, "wall_ms_per_question": 231.5,
                 "critical_path_ms_per_question": 230.2, "parse_failures": 1, "errors": 1, "wall_seconds": 12.3,
                 "started": "2026-11-21T05:00:00Z", "finished": "2026-11-21T05:00:12Z", "future_field": [1, 2]}
                """.formatted(method, runId, metricsJson, method.equals("standard-rag") ? "1.0" : "4.5"));
        Files.writeString(dir.resolve("results.jsonl"), String.join("\n",
                """
                {"id": "q1", "question": "Who wrote <i>Hamlet</i>?", "prediction": "%s", "answers": ["Shakespeare"], "gold": ["William Shakespeare"], "wrong": ["Marlowe"], "metrics": {"strict-multi": 0.0, "f1": 0.25}, "calls": 2, "prompt_tokens": 900, "completion_tokens": 50, "wall_ms": 310.5, "critical_path_ms": 300.0, "parse_failures": ["no \\\\boxed{} in <output>"], "error": null}"""
                        .formatted(HOSTILE.replace("/", "\\/")),
                """
                {"id": "%s", "question": "Capital of France?", "prediction": "Paris", "answers": ["Paris"], "gold": ["Paris"], "wrong": [], "metrics": {"strict-multi": 1.0, "f1": 1.0}, "calls": 1, "prompt_tokens": 700, "completion_tokens": 20, "wall_ms": 120.0, "critical_path_ms": 120.0, "parse_failures": [], "error": null}"""
                        .formatted(HOSTILE_ID),
                """
                {"id": "q3", "question": "Largest planet?", "prediction": "", "answers": [], "gold": ["Jupiter"], "wrong": ["Saturn"], "metrics": {"strict-multi": 0.0, "f1": 0.0}, "calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "wall_ms": 5.0, "critical_path_ms": 0.0, "parse_failures": [], "error": "backend failed: <img src=x onerror=alert(2)>"}""",
                "{\"id\": \"q4\", \"question\": \"Truncated li"));
        if (traces) {
            try (TraceStore store = TraceStore.open(dir.resolve("traces.db"))) {
                long t = 1_700_000_000_000_000L;
                CallContext q1 = CallContext.of(runId, "q1", method);
                store.record(new CallRecord("c1-" + name, q1.role("solver").step(0), "sim", "m",
                        "[{\"role\":\"system\",\"content\":\"You answer questions.\"},"
                                + "{\"role\":\"user\",\"content\":\"Who wrote <i>Hamlet</i>? & why\"}]",
                        "{\"n\":2,\"temperature\":0.7}", List.of(HOSTILE, "Shakespeare \"quoted\""),
                        List.of("stop", "length"), 400, 30, 2, 0, 0, 0, 0, t, t + 100, t + 150_100, false, 1, 0, null));
                store.record(new CallRecord("c2-" + name, q1.role("aggregator").step(1), "sim", "m",
                        "Aggregate these answers: " + HOSTILE + "\n<a href=\"javascript:alert(3)\">x</a>",
                        "{}", List.of("<img src=x onerror=alert(4)>"), List.of("stop"), 0, 0, 1, 1, 500, 20, 120_000,
                        t + 200_000, t + 200_000, t + 350_000, true, 0, 0, null));
                CallContext q2 = CallContext.of(runId, HOSTILE_ID, method);
                store.record(new CallRecord("c3-" + name, q2.role("solver"), "sim", "m", "Capital of France?",
                        "{}", List.of("Paris"), List.of("stop"), 700, 20, 1, 0, 0, 0, 0, t + 400_000, t + 400_000, t + 520_000,
                        false, 2, 1, "first attempt: HTTP 503 <html>"));
            }
        }
        return dir;
    }
}
