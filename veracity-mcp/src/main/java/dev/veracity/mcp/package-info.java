/**
 * {@code veracity mcp}: Veracity's methods as Model Context Protocol tools, on the official MCP Java SDK.
 * <ul>
 *   <li>{@link VeracityMcp} assembles the server: the tools {@code verify} ({@link VerifyTool}), {@code ask}
 *       ({@link AskTool}), {@code search} ({@link SearchTool}) and {@code score} ({@link ScoreTool}), each with a
 *       JSON Schema for its input and its structured output, and the run summaries of a folder as resources
 *       ({@link RunSummaries});</li>
 *   <li>transports: stdio ({@link McpStdio}, for desktop agent hosts) and streamable HTTP at {@code /mcp} on Jetty
 *       ({@link McpHttpServer}), behind {@code veracity serve}'s API keys and per-key limits;</li>
 *   <li>a bad call is a tool error with a one-line reason ({@link ToolError}); long tools report progress, one
 *       notification per model call ({@link Progress}).</li>
 * </ul>
 * The methods run through {@link dev.veracity.server.MethodService}, serve's own pipeline.
 */
package dev.veracity.mcp;
