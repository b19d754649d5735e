package dev.veracity.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The run summaries of a folder ({@code --runs DIR}) as MCP resources, so an agent can read results: one resource per
 * run folder holding a {@code summary.json} (the folder itself and those below it, two levels deep, as {@code eval
 * --out} writes them), {@code veracity://runs/RELATIVE/PATH/summary.json}, read fresh on every read.
 */
final class RunSummaries {

    static final String SCHEME = "veracity://runs/";
    private static final int DEPTH = 3;

    private RunSummaries() {
    }

    /**
     * The resources of the folder's runs, in path order; none when the folder is absent. A folder below it that
     * cannot be read (permissions, removed meanwhile) is skipped, not a failure of the whole list.
     */
    static List<SyncResourceSpecification> of(Path folder) {
        List<SyncResourceSpecification> out = new ArrayList<>();
        if (folder == null || !Files.isDirectory(folder)) {
            return out;
        }
        Path root = folder.toAbsolutePath().normalize();
        List<Path> summaries = new ArrayList<>();
        try {
            Files.walkFileTree(root, java.util.Set.of(), DEPTH, new java.nio.file.SimpleFileVisitor<>() {
                @Override
                public java.nio.file.FileVisitResult visitFile(Path p, java.nio.file.attribute.BasicFileAttributes a) {
                    if (a.isRegularFile() && p.getFileName().toString().equals("summary.json")) {
                        summaries.add(p);
                    }
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult visitFileFailed(Path p, IOException e) {
                    return java.nio.file.FileVisitResult.CONTINUE; // unreadable: skipped
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the runs in " + folder + ": " + e.getMessage(), e);
        }
        summaries.sort(null);
        for (Path summary : summaries) {
            out.add(resource(root, summary));
        }
        return out;
    }

    private static SyncResourceSpecification resource(Path root, Path summary) {
        String rel = root.relativize(summary).toString().replace('\\', '/');
        String uri = SCHEME + rel;
        Path run = summary.getParent();
        String name = root.equals(run) ? root.getFileName().toString() : root.relativize(run).toString().replace('\\', '/');
        McpSchema.Resource r = McpSchema.Resource.builder().uri(uri).name(name).title("run " + name)
                .description(describe(summary)).mimeType("application/json").build();
        return new SyncResourceSpecification(r, (exchange, request) -> {
            String text;
            try {
                text = Files.readString(summary, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + rel + ": " + e.getMessage(), e);
            }
            return new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(uri, "application/json",
                    text)));
        });
    }

    /** The run's method, dataset and questions, from its summary, for the resource list. */
    private static String describe(Path summary) {
        try {
            JsonNode s = ToolSpec.JSON.readTree(summary.toFile());
            return "summary.json of a run: method " + s.path("method").asText("?") + ", dataset "
                    + s.path("dataset").asText("?") + ", " + s.path("n").asText(s.path("questions").asText("?"))
                    + " questions";
        } catch (IOException | RuntimeException e) {
            return "summary.json of a run (not readable as JSON)";
        }
    }
}
