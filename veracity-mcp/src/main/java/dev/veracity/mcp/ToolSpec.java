package dev.veracity.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.http.HttpProblem;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;

/**
 * A tool as the SDK serves it: its schemas, and a handler whose every failure is a tool error ({@code isError}, the
 * one-line reason as its text) instead of a protocol error, so a bad call never stops the server or the session.
 */
final class ToolSpec {

    static final ObjectMapper JSON = new ObjectMapper();

    /** What a tool does with one call: its structured result, or a {@link ToolError}. */
    @FunctionalInterface
    interface Handler {
        ObjectNode call(McpSyncServerExchange exchange, McpSchema.CallToolRequest request, ToolArgs args)
                throws InterruptedException;
    }

    private ToolSpec() {
    }

    static SyncToolSpecification of(String name, String title, String description, String inputSchema,
                                    String outputSchema, Handler handler) {
        McpSchema.Tool tool = McpSchema.Tool.builder().name(name).title(title).description(description)
                .inputSchema(McpJsonDefaults.getMapper(), inputSchema)
                .outputSchema(McpJsonDefaults.getMapper(), outputSchema).build();
        return SyncToolSpecification.builder().tool(tool).callHandler((exchange, request) -> {
            ObjectNode result;
            try {
                result = handler.call(exchange, request, new ToolArgs(request.arguments()));
            } catch (ToolError e) {
                return error(e.getMessage());
            } catch (HttpProblem e) {
                return error(e.getMessage());
            } catch (InterruptedException e) {
                // the interrupt is this call's cancellation (the HTTP server's deadline or stop), consumed here so that
                // the thread can still write the answer that says so
                return error("cancelled: the call ran past the server's deadline (--deadline-seconds), or the server"
                        + " is stopping");
            } catch (IllegalArgumentException e) {
                return error(String.valueOf(e.getMessage()));
            } catch (RuntimeException e) {
                return error(name + " failed: " + e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> structured = JSON.convertValue(result, Map.class);
            return McpSchema.CallToolResult.builder().structuredContent(structured).addTextContent(result.toString())
                    .isError(false).build();
        }).build();
    }

    static McpSchema.CallToolResult error(String reason) {
        String line = reason == null ? "failed" : reason.replaceAll("\\s*\\R\\s*", " ").strip();
        return McpSchema.CallToolResult.builder().addTextContent(line).isError(true).build();
    }
}
