package dev.veracity.eval.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rollout folder's report: one SVG tree per question, credit as colour, hostile text escaped, safe file names. */
class TreeReportTest {

    @TempDir
    Path dir;

    private static final String TREE = "{\"id\":\"../q<1>\",\"question\":\"Who <b>directed</b> Titanic?\",\"gold\":[\"James Cameron\"],"
            + "\"max_depth\":13,\"nodes\":["
            + "{\"id\":\"0\",\"parent\":null,\"agent\":\"question\",\"depth\":0,\"action\":\"Who <b>directed</b> Titanic?\",\"credit\":0.5,\"leaves\":2},"
            + "{\"id\":\"0.0\",\"parent\":\"0\",\"agent\":\"router\",\"role\":\"router\",\"depth\":1,\"action\":\"[No Retrieval]\",\"credit\":1.0,\"leaves\":1,\"forced\":true},"
            + "{\"id\":\"0.1\",\"parent\":\"0\",\"agent\":\"router\",\"role\":\"router\",\"depth\":1,\"action\":\"[Planning]\",\"credit\":0.0,\"leaves\":1,\"forced\":true},"
            + "{\"id\":\"0.0.0\",\"parent\":\"0.0\",\"agent\":\"llm\",\"role\":\"answer\",\"depth\":3,\"action\":\"James Cameron</text><script>x</script>\",\"credit\":1.0,\"leaves\":1,\"reward\":1.0},"
            + "{\"id\":\"0.1.0\",\"parent\":\"0.1\",\"agent\":\"llm\",\"role\":\"roadmap\",\"depth\":2,\"action\":null,\"credit\":0.0,\"leaves\":1,\"reward\":0.0,\"failure\":\"call\",\"failure_detail\":\"call failed: 500\"}],"
            + "\"leaf_count\":2,\"correct_leaves\":1,\"failed_leaves\":1,\"calls\":{\"proxy\":0,\"llm\":2,\"searches\":0},\"truncated\":false,\"ms\":3.0}";

    @Test
    void eachQuestionGetsAnSvgTreeColouredByCredit() throws Exception {
        Path rollout = Files.createDirectories(dir.resolve("rollout"));
        Files.writeString(rollout.resolve("trees.jsonl"), TREE + "\n{\"id\":\"torn");
        assertThat(TreeReport.isRolloutFolder(rollout)).isTrue();

        Path index = TreeReport.write(rollout, dir.resolve("report"));

        String html = Files.readString(index);
        assertThat(html).contains("Who &lt;b&gt;directed&lt;/b&gt; Titanic?").contains("0.500").doesNotContain("<b>directed");
        try (var files = Files.list(dir.resolve("report"))) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("index.html", "___q_1_-f2ba7eb2.html");
        }
        String page = Files.readString(dir.resolve("report/___q_1_-f2ba7eb2.html"));
        assertThat(page).contains("<svg").contains("</svg>");
        assertThat(page.split("<rect", -1)).hasSize(5 + 1);
        assertThat(page).contains("fill=\"" + TreeReport.color(1.0) + "\"").contains("fill=\"" + TreeReport.color(0.0) + "\"")
                .contains("stroke-dasharray").contains("failed: call").contains("reward 1.000").contains("stroke-width=\"3\"")
                .doesNotContain("<script>").contains("&lt;/text&gt;&lt;script&gt;");
        assertThat(TreeReport.color(0.0)).isEqualTo("#f49696");
        assertThat(TreeReport.color(1.0)).isEqualTo("#96e696");
        assertThat(TreeReport.color(0.5)).isEqualTo("#f4e696");
    }

    @Test
    void aTreeOfANewerSchemaOrAnotherShapeIsRefusedInOneLineNamingTheLine() throws Exception {
        Path rollout = Files.createDirectories(dir.resolve("rollout"));
        Files.writeString(rollout.resolve("trees.jsonl"), TREE + "\n" + TREE.replaceFirst("\\{", "{\"schema_version\":2,") + "\n");
        assertThatThrownBy(() -> TreeReport.write(rollout, dir.resolve("report")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("trees.jsonl:2 has schema_version 2")
                .hasMessageNotContaining("\n");
        Files.writeString(rollout.resolve("trees.jsonl"), TREE.replace("\"leaf_count\":2", "\"leaf_count\":\"two\"") + "\n");
        assertThatThrownBy(() -> TreeReport.write(rollout, dir.resolve("report")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("trees.jsonl:1 is not a rollout tree");
    }
}
