package dev.veracity.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.veracity.qa.Document;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Tool arguments as clients send them, wrong in every way a JSON value can be: each read is a typed value or a
 * {@link ToolError} naming the argument, never another exception.
 */
class ToolArgsTest {

    /** JSON values of every kind, as the SDK's JSON reading gives them. */
    private static final List<Object> VALUES = Arrays.asList(null, "", " ", "text", 0, 3, -1, 2.5, 1e300, 3.0, true,
            false, List.of(), List.of("a"), List.of(1, 2), Arrays.asList("a", null), List.of(Map.of("text", 1)),
            List.of(Map.of("id", "x")), List.of(Map.of("text", "t", "id", 7, "title", List.of())), Map.of(),
            Map.of("k", "v"), Map.of("k", List.of()), Map.of("k", Map.of()), new HashMap<>(Map.of("samples", 2.0)));

    private static final List<Function<ToolArgs, Object>> READS = List.of(a -> a.string("x"), a -> a.optString("x"),
            a -> a.choice("x", "bm25", SearchTool.MODES), a -> a.integer("x", 3, 1, 16), a -> a.bool("x"),
            a -> a.strings("x"), a -> a.documents("x"), a -> a.options("x"));

    @Test
    void everyReadOfEveryValueIsAValueOrAToolErrorNamingTheArgument() {
        List<String> wrong = new ArrayList<>();
        for (Object v : VALUES) {
            Map<String, Object> args = new HashMap<>();
            args.put("x", v);
            for (int i = 0; i < READS.size(); i++) {
                int j = i;
                Throwable t = catchThrowable(() -> READS.get(j).apply(new ToolArgs(args)));
                if (t != null && !(t instanceof ToolError && t.getMessage().contains("'x'"))) {
                    wrong.add("read " + i + " of " + v + ": " + t);
                }
            }
        }
        assertThat(wrong).isEmpty();
    }

    @Test
    void readsWhatClientsSend() {
        ToolArgs a = new ToolArgs(Map.of("docs", List.of("plain", Map.of("text", "t", "id", 7, "title", "T")),
                "k", 5.0, "mode", " Hybrid ", "gold", "Paris", "opts", Map.of("samples", 5.0, "match", "typed", "x", true)));
        assertThat(a.documents("docs")).containsExactly(Document.of("1", "", "plain"), Document.of("7", "T", "t"));
        assertThat(a.documents("none")).isNull();
        assertThat(a.integer("k", 10, 1, 100)).isEqualTo(5);
        assertThat(a.choice("mode", "bm25", SearchTool.MODES)).isEqualTo("hybrid");
        assertThat(a.strings("gold")).containsExactly("Paris");
        assertThat(a.options("opts")).containsEntry("samples", "5").containsEntry("match", "typed")
                .containsEntry("x", "true");
        assertThat(catchThrowable(() -> a.string("missing"))).isInstanceOf(ToolError.class)
                .hasMessage("missing 'missing': give it as a non-empty string");
    }
}
