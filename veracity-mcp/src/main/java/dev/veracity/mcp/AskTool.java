package dev.veracity.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.http.HttpProblem;
import dev.veracity.methods.Methods;
import dev.veracity.server.MethodService;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import java.util.List;

/**
 * {@code ask}: a question answered by a method (any of {@code veracity methods}, or a composition such as
 * {@code standard-rag+march+abstain}), through {@code veracity serve}'s pipeline: the answer and serve's
 * {@code veracity} field as it is (the method's verdicts, signals, details, documents, calls and cost).
 */
final class AskTool {

    static final String INPUT = """
            {"type": "object", "properties": {
              "question": {"type": "string"},
              "method": {"type": "string", "description": "A method (madam-rag, march, c3po, court, truthrl, standard-rag, ...), METHOD+march or METHOD+march+abstain, optionally @UPSTREAM_MODEL"},
              "documents": %s,
              "options": {"type": "object", "description": "The method's options by name (veracity methods --options lists them)", "additionalProperties": {"type": ["string", "number", "boolean"]}},
              "dataset": {"type": "string", "description": "The prompt family for methods whose prompts differ by dataset"},
              "multi_answer": {"type": "boolean", "description": "Ask for every valid answer (MADAM-RAG's answer-set format)"}
            }, "required": ["question", "method"]}""".formatted(ToolArgs.DOCUMENTS_SCHEMA);

    static final String OUTPUT = """
            {"type": "object", "properties": {
              "answer": {"type": "string"},
              "veracity": {"type": "object", "description": "What the method did: as the veracity field of veracity serve's answers", "additionalProperties": true}
            }, "required": ["answer", "veracity"], "additionalProperties": true}""";

    private AskTool() {
    }

    static SyncToolSpecification spec(MethodService service) {
        return ToolSpec.of("ask", "Answer with a method", "Answer a question with one of Veracity's methods against"
                + " hallucination (MARCH, TruthRL, C-3PO, Reasoning Court, MADAM-RAG, baselines, and METHOD+march[+abstain]"
                + " to verify the answer), from the documents given or the server's index. Returns the answer and what"
                + " the method did: its verdicts, signals, documents, calls and tokens.", INPUT, OUTPUT,
                (exchange, request, args) -> {
                    String method = args.string("method").strip();
                    MethodService.Question q = new MethodService.Question(args.string("question"), method,
                            args.documents("documents"), args.options("options"), args.optString("dataset"),
                            args.bool("multi_answer"));
                    MethodService.Answer a;
                    try {
                        a = service.ask(q, Progress.of(exchange, request));
                    } catch (HttpProblem e) {
                        throw inOurWords(e, method, service);
                    }
                    ObjectNode out = ToolSpec.JSON.createObjectNode();
                    out.put("answer", a.answer());
                    out.set("veracity", a.veracity());
                    return out;
                });
    }

    /**
     * Serve's problems whose words name its HTTP fields, said for a tool call; the others as they are. A
     * {@code model_not_found} is the method's only when the method part is unknown: for {@code march@other} it is the
     * upstream model that is not allowed, and serve's reason says which are.
     */
    static RuntimeException inOurWords(HttpProblem e, String requested, MethodService service) {
        int at = requested.indexOf('@');
        String method = at < 0 ? requested : requested.substring(0, at);
        return switch (e.code()) {
            case "model_not_found" -> service.knowsMethod(method) ? e : new ToolError("unknown method '" + cut(method) + "': use one of "
                    + String.join(", ", Methods.names()) + ", or METHOD+march, METHOD+march+abstain"
                    + " (optionally @UPSTREAM_MODEL of those the server allows)");
            case "missing_documents" -> new ToolError("missing documents: method " + cut(method) + " answers from"
                    + " documents: give 'documents', use a closed-book method (no-rag, cot, truthrl-no-retrieval), or"
                    + " start veracity mcp with --index DIR");
            default -> e;
        };
    }

    private static String cut(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
