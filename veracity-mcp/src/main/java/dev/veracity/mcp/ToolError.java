package dev.veracity.mcp;

/** A tool call that cannot be answered: its one-line reason becomes the MCP tool error's text. */
final class ToolError extends RuntimeException {

    ToolError(String reason) {
        super(reason, null, false, false);
    }
}
