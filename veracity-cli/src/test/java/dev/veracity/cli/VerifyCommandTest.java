package dev.veracity.cli;

import static dev.veracity.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.cli.CliRun.Result;
import dev.veracity.methods.march.AppendixC;
import dev.veracity.qa.Document;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code verify} over HTTP against the simulator that answers as the paper's model does in Appendix C. */
class VerifyCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path docs(List<Document> documents) throws Exception {
        Path f = dir.resolve("docs-" + System.nanoTime() + ".jsonl");
        List<String> lines = new ArrayList<>();
        for (Document d : documents) {
            lines.add(JSON.createObjectNode().put("id", d.id()).put("text", d.text()).toString());
        }
        lines.add("");
        Files.write(f, lines);
        return f;
    }

    private Result verify(SimServer sim, Path docs, String... extra) {
        List<String> args = new ArrayList<>(List.of("verify", "--question", AppendixC.QUESTION, "--response",
                AppendixC.SOLVER_RESPONSE, "--docs", docs.toString(), "--llm-base-url", sim.baseUrl(), "--model", "sim-model",
                "--cache", "off", "--trace-file", dir.resolve("traces.db").toString()));
        args.addAll(List.of(extra));
        return run(args.toArray(String[]::new));
    }

    @Test
    void appendixCConfirmsFiveClaimsWithRewardZeroAndBlindCheckerCalls() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(MarchDemo.simRules().toArray(dev.veracity.sim.Rule[]::new)).build())) {
            Result r = verify(sim, docs(AppendixC.DOCUMENTS));
            assertThat(r.code()).as(r.err()).isZero();
            JsonNode j = JSON.readTree(r.out());
            assertThat(j.get("reward").asDouble()).isZero();
            assertThat(j.get("passed").asBoolean()).isTrue();
            assertThat(j.get("claims")).hasSize(5);
            for (int i = 0; i < 5; i++) {
                JsonNode c = j.get("claims").get(i);
                assertThat(c.get("verdict").asText()).isEqualTo("confirmed");
                assertThat(c.get("claimed_answer").asText()).isEqualTo(AppendixC.CLAIMED.get(i));
                assertThat(c.get("checker_answers")).hasSize(3);
                assertThat(c.at("/checker_answers/0/evidence").asText()).startsWith("Document-");
            }
            assertThat(j.at("/calls/proposer").asInt()).isEqualTo(1);
            assertThat(j.at("/calls/checker").asInt()).isEqualTo(3);
            assertThat(j.at("/calls/total").asInt()).isEqualTo(4);
            // What reached the model: the Checker prompts hold neither the response nor a claimed pair.
            List<String> checkerPrompts = sim.recentRequests().stream().map(q -> q.body().toString())
                    .filter(b -> b.contains("data validation expert")).toList();
            assertThat(checkerPrompts).hasSize(3).allSatisfy(p -> assertThat(p)
                    .doesNotContain("Levodopa Resistance").doesNotContain("hallucinations (52").doesNotContain("[Answer: 52]"));
        }
    }

    @Test
    void aDocumentThatDisagreesGivesMinusOneAndTextFormatPrintsTheTable() throws Exception {
        List<Document> changed = new ArrayList<>(AppendixC.DOCUMENTS);
        changed.set(7, Document.of("8", "", changed.get(7).text().replace("89%", "80%")));
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(MarchDemo.simRules().toArray(dev.veracity.sim.Rule[]::new)).build())) {
            Result json = verify(sim, docs(changed));
            JsonNode j = JSON.readTree(json.out());
            assertThat(j.get("reward").asDouble()).isEqualTo(-1.0);
            assertThat(j.get("faults").asInt()).isEqualTo(1);
            assertThat(j.at("/claims/3/verdict").asText()).isEqualTo("fault");
            assertThat(j.at("/claims/3/consensus").asText()).isEqualTo("80");
            Result text = verify(sim, docs(changed), "--format", "text", "--samples", "5");
            assertThat(text.out()).contains("cortical myoclonus").contains("80 / 80 / 80 / 80 / 80")
                    .contains("zero-tolerance reward -1.0").contains("calls: proposer 1, checker 5, total 6");
        }
    }

    @Test
    void theResponseCanComeFromAFile() throws Exception {
        Path response = dir.resolve("response.txt");
        Files.writeString(response, AppendixC.SOLVER_RESPONSE);
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(MarchDemo.simRules().toArray(dev.veracity.sim.Rule[]::new)).build())) {
            Result r = run("verify", "--question", AppendixC.QUESTION, "--response-file", response.toString(), "--docs",
                    docs(AppendixC.DOCUMENTS).toString(), "--llm-base-url", sim.baseUrl(), "--cache", "off",
                    "--trace-file", dir.resolve("t.db").toString());
            assertThat(r.code()).isZero();
            assertThat(JSON.readTree(r.out()).get("claims_total").asInt()).isEqualTo(5);
        }
    }

    @Test
    void anUnreadableProposerOutputIsNotVerifiedAndExitsNonZero() throws Exception {
        dev.veracity.sim.Rule proposer = dev.veracity.sim.Rule.of("(?s).*annotation expert.*",
                "Sure! The response talks about several percentages of patients.");
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(proposer).build())) {
            Result r = verify(sim, docs(AppendixC.DOCUMENTS));
            assertThat(r.code()).isEqualTo(VerifyCommand.UNVERIFIED);
            JsonNode j = JSON.readTree(r.out());
            assertThat(j.get("passed").asBoolean()).isFalse();
            assertThat(j.get("status").asText()).isEqualTo("unparseable");
            assertThat(j.get("reward").asDouble()).isEqualTo(-1.0);
            assertThat(j.at("/calls/checker").asInt()).isZero();
            assertThat(r.err()).contains("not verified");
        }
    }

    /** Issue 25 point 15: nothing was checked, so the answer did not pass; the verdict is no_claims, as the server says. */
    @Test
    void anAnswerWithoutANumericClaimIsNoClaimsNotPassed() throws Exception {
        try (SimServer sim = SimServer.start(SimConfig.builder().build())) { // the built-in reader
            List<String> args = List.of("verify", "--question", "Where is the Eiffel Tower?", "--response",
                    "The Eiffel Tower is in Paris.", "--docs", docs(AppendixC.DOCUMENTS).toString(), "--llm-base-url",
                    sim.baseUrl(), "--model", "sim-model", "--cache", "off", "--trace-file", dir.resolve("t.db").toString());
            Result r = run(args.toArray(String[]::new));
            assertThat(r.code()).as(r.err()).isZero();
            JsonNode j = JSON.readTree(r.out());
            assertThat(j.get("status").asText()).isEqualTo("no_claims");
            assertThat(j.get("passed").asBoolean()).isFalse();
            assertThat(j.get("claims_total").asInt()).isZero();
            assertThat(j.get("reward").asDouble()).isZero(); // the authors' reward for no pairs is unchanged
            assertThat(j.at("/calls/checker").asInt()).isZero();
            List<String> text = new ArrayList<>(args);
            text.addAll(List.of("--format", "text"));
            assertThat(run(text.toArray(String[]::new)).out()).contains("(the response makes no claim to check)")
                    .contains("status no_claims, claims 0").doesNotContain("passed");
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 60, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
    void outputsPaddedWithTensOfThousandsOfSpacesFinish() throws Exception {
        // 60k spaces and tabs inside every model output (the old regexes backtracked for minutes on this)
        String pad = " \t".repeat(30_000);
        List<dev.veracity.sim.Rule> padded = new ArrayList<>();
        for (dev.veracity.sim.Rule rule : MarchDemo.simRules()) {
            padded.add(dev.veracity.sim.Rule.of(rule.pattern(), m -> rule.respond(m).replace("[Answer:", "[Answer:" + pad)
                    .replace("Answer:", "Answer:" + pad).replace("Evidence:", "Evidence:" + pad)));
        }
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(padded.toArray(dev.veracity.sim.Rule[]::new)).build())) {
            Result r = verify(sim, docs(AppendixC.DOCUMENTS));
            assertThat(r.code()).as(r.err()).isZero();
            JsonNode j = JSON.readTree(r.out());
            assertThat(j.get("claims_total").asInt()).isEqualTo(5);
            assertThat(j.get("passed").asBoolean()).isTrue();
        }
    }

    @Test
    void badDocumentsFileIsAClearError() throws Exception {
        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(bad, "{\"id\": \"1\"}\n");
        try (SimServer sim = SimServer.start(SimConfig.builder().rules(MarchDemo.simRules().toArray(dev.veracity.sim.Rule[]::new)).build())) {
            Result r = verify(sim, bad);
            assertThat(r.code()).isNotZero();
            assertThat(r.err()).contains("bad.jsonl:1").contains("\"text\"");
        }
    }
}
