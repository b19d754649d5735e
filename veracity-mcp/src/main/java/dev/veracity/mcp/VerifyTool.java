package dev.veracity.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.methods.march.MarchJson;
import dev.veracity.server.MethodService;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import java.util.List;
import java.util.Map;

/**
 * {@code verify}: MARCH checks an answer against documents (given, or retrieved from the server's index with the
 * question): the Proposer once, the Checker k times blind to the answer; the verdict (passed, failed, no_claims,
 * unparseable) and every claim with the Checker's answers and evidence, as {@code veracity verify --format json}
 * prints them ({@link MarchJson}).
 */
final class VerifyTool {

    static final String INPUT = """
            {"type": "object", "properties": {
              "question": {"type": "string", "description": "The question the answer answers (also the query when documents come from the server's index)"},
              "answer": {"type": "string", "description": "The answer to check"},
              "documents": %s,
              "samples": {"type": "integer", "minimum": 1, "maximum": 16, "description": "Checker samples voted per claim (default 3)"},
              "claims": {"type": "string", "enum": ["numeric", "typed"], "description": "numeric (the paper) or typed (dates, names, yes/no too)"},
              "options": {"type": "object", "description": "Other MARCH options by name (match, temperature, min-pairs, ...)", "additionalProperties": {"type": ["string", "number", "boolean"]}}
            }, "required": ["question", "answer"]}""".formatted(ToolArgs.DOCUMENTS_SCHEMA);

    static final String OUTPUT = """
            {"type": "object", "properties": {
              "status": {"type": "string", "enum": ["passed", "failed", "no_claims", "unparseable"]},
              "passed": {"type": "boolean"},
              "reward": {"type": "number"}, "error_rate_reward": {"type": "number"},
              "claims_total": {"type": "integer"}, "faults": {"type": "integer"},
              "claims": {"type": "array", "items": {"type": "object", "properties": {
                "number": {"type": "integer"}, "question": {"type": "string"}, "claimed_answer": {"type": "string"},
                "checker_answers": {"type": "array", "items": {"type": "object", "properties": {
                  "sample": {"type": "integer"}, "answer": {"type": ["string", "null"]}, "evidence": {"type": ["string", "null"]}}}},
                "consensus": {"type": ["string", "null"]}, "vote": {"type": "integer"}, "verdict": {"type": "string"}}}},
              "parse_problems": {"type": "array", "items": {"type": "string"}},
              "documents": {"type": "object"}, "calls": {"type": "object"}
            }, "required": ["status", "passed", "claims"], "additionalProperties": true}""";

    private VerifyTool() {
    }

    static SyncToolSpecification spec(MethodService service) {
        return ToolSpec.of("verify", "Verify an answer with MARCH", "Check an answer against documents with MARCH:"
                + " the Proposer turns it into claims (question + claimed answer), the Checker answers each question from"
                + " the documents alone, blind to the answer; a claim whose answers disagree is a fault. Returns the"
                + " verdict (passed, failed, no_claims, unparseable) and every claim with the Checker's answers and"
                + " evidence. Without documents, the server's index is searched with the question.", INPUT, OUTPUT,
                (exchange, request, args) -> {
                    String question = args.string("question");
                    String answer = args.string("answer");
                    List<dev.veracity.qa.Document> docs = args.documents("documents");
                    Map<String, String> options = new java.util.LinkedHashMap<>(args.options("options"));
                    // the top-level fields are MARCH's options too: given, they are set; unset, 'options' or the
                    // paper's default decides
                    if (args.given("samples")) {
                        settle(options, "samples", Integer.toString(args.integer("samples", 3, 1, 16)));
                    }
                    if (args.given("claims")) {
                        settle(options, "claims", args.choice("claims", "numeric", List.of("numeric", "typed")));
                    }
                    if (docs == null && !service.hasIndex()) {
                        throw new ToolError("missing documents: give 'documents', or start veracity mcp with --index DIR"
                                + " to retrieve them with the question");
                    }
                    MethodService.Checked c = service.verify(question, answer, docs, options,
                            Progress.of(exchange, request));
                    ObjectNode out = MarchJson.of(c.verification(), c.settings());
                    ObjectNode d = out.putObject("documents");
                    d.put("source", c.documentSource());
                    d.put("count", c.documents().size());
                    d.putPOJO("ids", c.documents().stream().map(dev.veracity.qa.Document::id).toList());
                    return MarchJson.putCalls(out, c.calls());
                });
    }

    /** Sets a top-level field's value as the option of that name, unless 'options' gives it another value. */
    private static void settle(Map<String, String> options, String name, String value) {
        String inOptions = options.get(name);
        if (inOptions != null && !inOptions.strip().equalsIgnoreCase(value)) {
            throw new ToolError("'" + name + "' is " + value + " but options." + name + " is "
                    + (inOptions.length() <= 40 ? inOptions : inOptions.substring(0, 37) + "...") + ": give one of them");
        }
        options.put(name, value);
    }
}
