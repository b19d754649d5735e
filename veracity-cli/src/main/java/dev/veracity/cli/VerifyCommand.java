package dev.veracity.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.config.VeracityConfig;
import dev.veracity.eval.report.TextTable;
import dev.veracity.methods.march.ClaimCheck;
import dev.veracity.methods.march.MarchJson;
import dev.veracity.methods.march.MarchSettings;
import dev.veracity.methods.march.MarchVerifier;
import dev.veracity.methods.march.Verification;
import dev.veracity.qa.Document;
import dev.veracity.trace.CallContext;
import dev.veracity.trace.InMemoryTraces;
import dev.veracity.trace.TraceSink;
import dev.veracity.trace.TraceStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./veracity verify}: checks any answer against documents with MARCH (Proposer once, Checker k times, blind
 * to the answer) and prints the Zero-Tolerance Reward, each claim with the Checker's answers and evidence and its
 * verdict, and the calls made. Exit code 0 whether or not the answer passes; 2 for bad arguments; 3 when the
 * response could not be verified because the Proposer's output could not be read (never a pass).
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Check an answer against documents with MARCH's Proposer and blind Checker; print the reward and"
                + " every claim's verdict.")
public final class VerifyCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Exit code when the response could not be verified. */
    static final int UNVERIFIED = 3;

    @Option(names = "--question", required = true, paramLabel = "Q", description = "The question the response answers.")
    String question;

    @Option(names = "--response", paramLabel = "R", description = "The response to check.")
    String response;

    @Option(names = "--response-file", paramLabel = "FILE", description = "Read the response to check from a file instead.")
    Path responseFile;

    @Option(names = "--docs", required = true, paramLabel = "FILE",
            description = "JSONL, one document per line: {\"text\": ..., \"id\": ..., \"title\": ...} (id and title optional).")
    Path docs;

    @Option(names = "--samples", defaultValue = "3", paramLabel = "K", description = "Checker samples voted per claim (default 3).")
    int samples;

    @Option(names = "--min-pairs", paramLabel = "N",
            description = "Proposer: no fewer than N pairs (the Appendix B.4 constraint; default 0 = the A.2 prompt as printed).")
    Integer minPairs;

    @Option(names = "--match", paramLabel = "MODE",
            description = "Answer matching: authors (default; typed with --claims typed), strict or typed.")
    String match;

    @Option(names = "--claims", defaultValue = "numeric", paramLabel = "KIND",
            description = "numeric (the paper) or typed (our extension: dates, names, yes/no).")
    String claims;

    @Option(names = "--temperature", paramLabel = "T", description = "Sampling temperature of the agents (default 0.6).")
    Double temperature;

    @Option(names = "--format", defaultValue = "json", paramLabel = "FORMAT", description = "json (default) or text.")
    String format;

    @Mixin
    ModelOptions model;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        String fmt = format.toLowerCase(Locale.ROOT);
        if (!fmt.equals("json") && !fmt.equals("text")) {
            throw new IllegalArgumentException("--format must be json or text, was '" + format + "'");
        }
        if ((response == null) == (responseFile == null)) {
            throw new IllegalArgumentException("give the response to check with --response or --response-file (one of them)");
        }
        String checked = response != null ? response : Files.readString(responseFile, StandardCharsets.UTF_8);
        List<Document> documents = readDocuments(docs);
        Map<String, String> options = new LinkedHashMap<>();
        options.put("samples", Integer.toString(samples));
        if (match != null) {
            options.put("match", match);
        }
        options.put("claims", claims);
        if (minPairs != null) {
            options.put("min-pairs", Integer.toString(minPairs)); // above the default max-pairs, it raises it
        }
        if (temperature != null) {
            options.put("temperature", Double.toString(temperature));
        }
        MarchSettings settings = MarchSettings.fromOptions(options);
        VeracityConfig cfg = model.resolve();
        InMemoryTraces calls = new InMemoryTraces();
        String run = "verify-" + Instant.now();
        Verification v;
        try (TraceStore store = TraceStore.open(cfg.traceFile());
             Stack stack = new Stack(cfg, TraceSink.all(store, calls))) {
            v = new MarchVerifier(settings).verify(stack.client, CallContext.of(run, "verify", "march"), checked, documents);
        }
        PrintWriter out = spec.commandLine().getOut();
        ObjectNode json = MarchJson.of(v, settings);
        MarchJson.putCalls(json, calls.all());
        json.put("trace_run", run);
        if (fmt.equals("json")) {
            out.println(JSON.enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(json));
        } else {
            printText(out, v, json);
        }
        out.flush();
        if (v.status() == Verification.Status.UNPARSEABLE) {
            spec.commandLine().getErr().println("veracity verify: not verified: the Proposer's output could not be read"
                    + " (see parse_problems); rerun, or try another model or --temperature");
            return UNVERIFIED;
        }
        return 0;
    }

    /** The claim table, the reward and the calls, fitted to the terminal. */
    static void printText(PrintWriter out, Verification v, JsonNode json) {
        printText(out, v, json, Terminal.columns());
    }

    static void printText(PrintWriter out, Verification v, JsonNode json, int width) {
        out.print(claimTable(v.claims(), "question", "checker answers").render(width).text());
        if (v.status() == Verification.Status.NO_CLAIMS) {
            out.println("(the response makes no claim to check)");
        } else if (v.status() == Verification.Status.UNPARSEABLE) {
            out.println("(NOT VERIFIED: the Proposer's output could not be read)");
        }
        out.print(TextTable.wrap(String.format(Locale.ROOT, "status %s, claims %d, faults %d, zero-tolerance reward %s,"
                + " error-rate reward %s", json.get("status").asText(), v.claims().size(), v.faults(),
                json.get("reward").asText(), json.get("error_rate_reward").asText()), width, "", "  "));
        JsonNode calls = json.get("calls");
        if (calls != null) {
            out.printf(Locale.ROOT, "calls: proposer %d, checker %d, total %d%n", calls.get("proposer").asInt(),
                    calls.get("checker").asInt(), calls.get("total").asInt());
        }
        v.problems().forEach(p -> out.print(TextTable.wrap("parse problem: " + p, width, "", "  ")));
    }

    /**
     * The claims as a table (verify's and the MARCH demo's): each claim's question (wrapped first when the terminal is
     * narrow, never cut), the answer claimed, the Checker's answers, the vote and the verdict.
     */
    static TextTable claimTable(List<ClaimCheck> claims, String questionHeader, String answersHeader) {
        TextTable t = new TextTable(List.of(TextTable.Column.figure("#"),
                TextTable.Column.text(questionHeader, 20, 1).wrapped(20), TextTable.Column.text("claimed", 8, 2),
                TextTable.Column.text(answersHeader, 10, 3), TextTable.Column.figure("vote"),
                TextTable.Column.text("verdict", 7, 4)));
        for (ClaimCheck c : claims) {
            List<String> answers = new ArrayList<>();
            c.answers().forEach(a -> answers.add(a == null ? "-" : a.answer()));
            t.row(List.of(Integer.toString(c.claim().number()), oneLine(c.claim().question()), oneLine(c.claim().answer()),
                    oneLine(String.join(" / ", answers)), String.format(Locale.ROOT, "%+d", c.vote()),
                    String.valueOf(c.verdict())));
        }
        return t;
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s+", " ").strip();
    }

    static String cut(String s, int n) {
        String t = s.replaceAll("\\s+", " ");
        return t.length() <= n ? t : t.substring(0, n - 3) + "...";
    }

    /** JSONL documents; blank lines skipped; errors name the file and line. */
    static List<Document> readDocuments(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no documents file at " + file);
        }
        List<Document> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            JsonNode n;
            try {
                n = JSON.readTree(line);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": not JSON: " + e.getOriginalMessage());
            }
            if (n == null || !n.isObject() || !n.path("text").isTextual()) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": expected an object with a \"text\" string");
            }
            out.add(Document.of(n.path("id").asText(Integer.toString(out.size() + 1)), n.path("title").asText(""),
                    n.get("text").asText()));
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(file + ": no documents");
        }
        return out;
    }
}
