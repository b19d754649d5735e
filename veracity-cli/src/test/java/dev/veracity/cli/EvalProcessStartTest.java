package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.sim.LatencyModel;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import dev.veracity.testing.Shared;
import dev.veracity.trace.TraceStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code veracity eval} of one question does on its way to the first model call and out after the last, seen in a
 * JVM of its own recording Java Flight Recorder events: against a plain-http server it starts no subprocess (sqlite-jdbc
 * asked {@code uname -o} on every start) and reads no certificate (the JDK's HTTP client loaded the whole trust store
 * for a server without TLS); it leaves no thread waiting in native code, which would hold the JVM's exit back; and
 * what it must leave is all there when the process is gone: every call in traces.db, the answer in results.jsonl,
 * summary.json.
 */
class EvalProcessStartTest {

    @TempDir
    Path dir;

    /** The names of the threads of {@code type}'s events (thread start or end). */
    private static List<String> threads(List<RecordedEvent> events, String type) {
        return events.stream().filter(e -> e.getEventType().getName().equals(type))
                .map(e -> e.getThread("thread") == null ? "?" : e.getThread("thread").getJavaName()).toList();
    }

    @Test
    void evalOfOneQuestionStartsNoSubprocessReadsNoCertificateLeavesNoThreadInNativeCodeAndEveryRecord() throws Exception {
        Path jfr = dir.resolve("eval.jfr");
        Path run = dir.resolve("run");
        Map<String, String> env = Map.of(
                "JAVA_TOOL_OPTIONS", "-XX:StartFlightRecording:jdk.ProcessStart#enabled=true,jdk.X509Certificate#enabled=true"
                        + ",jdk.ProcessStart#stackTrace=true,jdk.ThreadStart#enabled=true,jdk.ThreadEnd#enabled=true"
                        + ",filename=" + jfr,
                "XDG_CACHE_HOME", dir.resolve("cache").toString());
        try (SimServer sim = SimServer.start(SimConfig.builder().latency(LatencyModel.ofMillis(5, 0)).build())) {
            CliProcess.Ran eval = CliProcess.run(env, "eval", "--method", "madam-rag", "--dataset", "ramdocs",
                    "--data", Shared.data("ramdocs/RAMDocs_test.jsonl").toString(), "--limit", "1",
                    "--out", run.toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model", "--cache", "off");
            assertThat(eval.code()).as(eval.out() + eval.err()).isZero();
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(jfr);
        assertThat(events.stream().filter(e -> e.getEventType().getName().equals("jdk.ProcessStart"))
                .map(e -> e.getString("command") + " from " + e.getStackTrace()))
                .as("subprocesses started by eval").isEmpty();
        assertThat(events.stream().filter(e -> e.getEventType().getName().equals("jdk.X509Certificate"))
                .map(e -> e.getString("subject")))
                .as("certificates read by eval of a plain-http server").isEmpty();

        // no thread left waiting in native code at the end (the JVM waits up to 0.3 s for each such one to exit): the
        // JDK's socket poller of virtual threads (the preflight's GET on one started it), the HTTP client's selector
        List<String> started = threads(events, "jdk.ThreadStart");
        assertThat(started).as("threads started by eval").noneMatch(t -> t.contains("Poller"));
        assertThat(started.stream().filter(t -> t.contains("SelectorManager")))
                .as("HTTP clients' selectors, each ended before the process").isNotEmpty()
                .allSatisfy(t -> assertThat(threads(events, "jdk.ThreadEnd")).contains(t));

        try (TraceStore traces = TraceStore.open(run.resolve("traces.db"))) {
            List<String> runs = traces.runs();
            assertThat(runs).hasSize(1);
            // MADAM-RAG on one question: the agents' round(s) and an aggregator per round, every one traced
            assertThat(traces.calls(runs.getFirst())).hasSizeGreaterThanOrEqualTo(2)
                    .allSatisfy(c -> assertThat(c.endedMicros()).isGreaterThanOrEqualTo(c.submittedMicros()));
        }
        assertThat(Files.readAllLines(run.resolve("results.jsonl"))).hasSize(1);
        assertThat(Files.readString(run.resolve("summary.json"))).contains("\"n\" : 1");
        try (var cached = Files.walk(dir.resolve("cache"))) {
            assertThat(cached.map(p -> p.getFileName().toString())).as("sqlite's library, from the user's cache")
                    .contains(System.mapLibraryName("sqlitejdbc"));
        }
    }
}
