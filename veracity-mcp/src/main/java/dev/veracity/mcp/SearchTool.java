package dev.veracity.mcp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.retrieval.Passage;
import dev.veracity.retrieval.Retriever;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import java.util.List;
import java.util.function.Function;

/**
 * {@code search}: the ranked passages of the server's index for a query, as {@code veracity search} finds them
 * (the index's retriever for the mode: BM25, dense, or both fused by RRF).
 */
final class SearchTool {

    static final List<String> MODES = List.of("bm25", "dense", "hybrid");

    static final String INPUT = """
            {"type": "object", "properties": {
              "query": {"type": "string"},
              "k": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Passages to return (default 10)"},
              "mode": {"type": "string", "enum": ["bm25", "dense", "hybrid"], "description": "bm25 (default), dense, or hybrid (RRF)"}
            }, "required": ["query"]}""";

    static final String OUTPUT = """
            {"type": "object", "properties": {
              "passages": {"type": "array", "items": {"type": "object", "properties": {
                "rank": {"type": "integer"}, "id": {"type": "string"}, "title": {"type": "string"},
                "text": {"type": "string"}, "score": {"type": "number"}}, "required": ["rank", "id", "text", "score"]}}
            }, "required": ["passages"]}""";

    private SearchTool() {
    }

    /** @param retrievers the index's retriever for a mode (null: the server has no index) */
    static SyncToolSpecification spec(Function<String, Retriever> retrievers) {
        return ToolSpec.of("search", "Search the index", "Search the server's document index and return the ranked"
                + " passages (BM25, dense, or hybrid).", INPUT, OUTPUT, (exchange, request, args) -> {
                    String query = args.string("query");
                    int k = args.integer("k", 10, 1, 100);
                    String mode = args.choice("mode", "bm25", MODES);
                    if (retrievers == null) {
                        throw new ToolError("no index to search: start veracity mcp with --index DIR");
                    }
                    List<Passage> hits = retrievers.apply(mode).search(query, k);
                    ObjectNode out = ToolSpec.JSON.createObjectNode();
                    ArrayNode passages = out.putArray("passages");
                    int rank = 1;
                    for (Passage p : hits) {
                        passages.addObject().put("rank", rank++).put("id", p.id()).put("title", p.title())
                                .put("text", p.text()).put("score", p.score());
                    }
                    return out;
                });
    }
}
