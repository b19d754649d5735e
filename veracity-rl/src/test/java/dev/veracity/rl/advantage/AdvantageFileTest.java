package dev.veracity.rl.advantage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.rl.jsonl.BadInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdvantageFileTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path file(String... lines) throws Exception {
        Path f = dir.resolve("in-" + System.nanoTime() + ".jsonl");
        Files.writeString(f, String.join("\n", lines) + "\n");
        return f;
    }

    @Test
    void grpoRowsGetTheirAdvantageAndKeepTheirFields() throws Exception {
        Path in = file("{\"group\": \"q1\", \"reward\": 1, \"id\": \"a\"}", "{\"group\": \"q2\", \"reward\": 0.5}",
                "{\"group\": \"q1\", \"reward\": 0}", "{\"group\": \"q1\", \"reward\": 0}", "{\"group\": \"q1\", \"reward\": -1}",
                "{\"group\": \"q2\", \"reward\": 0.5}");
        Path out = dir.resolve("out.jsonl");
        AdvantageFile.GrpoSummary s = AdvantageFile.grpo(in, out, GrpoFlavor.VERL, StdScaling.GROUP);
        assertThat(s).isEqualTo(new AdvantageFile.GrpoSummary(6, 2, 1));
        List<String> lines = Files.readAllLines(out);
        double[] adv = lines.stream().mapToDouble(l -> read(l).get("advantage").asDouble()).toArray();
        assertThat(adv).containsExactly(new double[] {1.2247434, 0, 0, 0, -1.2247434, 0}, within(1e-6));
        assertThat(read(lines.getFirst()).get("id").asText()).isEqualTo("a");
    }

    @Test
    void trlTakesANullRewardTheOthersRefuseItOnItsLine() throws Exception {
        Path in = file("{\"group\": 1, \"reward\": 1}", "{\"group\": 1, \"reward\": null}", "{\"group\": 1, \"reward\": 0}");
        Path out = dir.resolve("trl.jsonl");
        AdvantageFile.grpo(in, out, GrpoFlavor.TRL, StdScaling.GROUP);
        assertThat(read(Files.readAllLines(out).get(1)).get("advantage").asDouble()).isEqualTo(0.0);
        assertThatThrownBy(() -> AdvantageFile.grpo(in, dir.resolve("verl.jsonl"), GrpoFlavor.VERL, StdScaling.GROUP))
                .isInstanceOf(BadInputException.class).hasMessageStartingWith(in + ":2: reward is null");
        assertThat(dir.resolve("verl.jsonl")).doesNotExist();
    }

    @Test
    void anOpenRlhfGroupOfOneIsRefusedAtItsFirstLine() throws Exception {
        Path in = file("{\"group\": \"a\", \"reward\": 1}", "{\"group\": \"a\", \"reward\": 0}", "", "{\"group\": \"b\", \"reward\": 1}");
        assertThatThrownBy(() -> AdvantageFile.grpo(in, dir.resolve("o.jsonl"), GrpoFlavor.OPENRLHF, StdScaling.GROUP))
                .hasMessageStartingWith(in + ":4: group b has one sample");
    }

    @Test
    void badGrpoRows() throws Exception {
        for (String[] c : List.of(
                new String[] {"{\"reward\": 1}", "missing \"group\""},
                new String[] {"{\"group\": [1], \"reward\": 1}", "\"group\" must be a string or a number"},
                new String[] {"{\"group\": \"a\"}", "missing \"reward\""},
                new String[] {"{\"group\": \"a\", \"reward\": \"1\"}", "\"reward\" must be a number"},
                new String[] {"{\"group\": \"a\", \"reward\": 1e999}", "\"reward\" must be a number"},
                new String[] {"{\"group\": \"a\", \"reward\": 1,}", "not JSON"})) {
            Path in = file("{\"group\": \"a\", \"reward\": 1}", c[0]);
            assertThatThrownBy(() -> AdvantageFile.grpo(in, dir.resolve("x.jsonl"), GrpoFlavor.TRL, StdScaling.GROUP))
                    .as(c[0]).isInstanceOf(BadInputException.class).hasMessageStartingWith(in + ":2: ").hasMessageContaining(c[1]);
        }
        assertThat(dir.resolve("x.jsonl")).doesNotExist();
    }

    @Test
    void gaeRowsGetAdvantagesAndReturnsWhitenedOnlyWhenAsked() throws Exception {
        Path in = file("{\"rewards\": [0, 0, 1], \"values\": [0.5, 0.6, 0.7], \"id\": 1}",
                "{\"rewards\": [0, 0.5, 1], \"values\": [0.2, 0.4, 0.1]}");
        Path raw = dir.resolve("raw.jsonl");
        assertThat(AdvantageFile.gae(in, raw, 1.0, 0.95, Whitening.NONE)).isEqualTo(new AdvantageFile.GaeSummary(2, 6));
        JsonNode first = read(Files.readAllLines(raw).getFirst());
        assertThat(numbers(first.get("advantages"))).containsExactly(new double[] {0.46575, 0.385, 0.30}, within(1e-9));
        assertThat(numbers(first.get("returns"))).containsExactly(new double[] {0.96575, 0.985, 1.0}, within(1e-9));
        assertThat(first.get("id").asInt()).isEqualTo(1);
        Path white = dir.resolve("white.jsonl");
        AdvantageFile.gae(in, white, 1.0, 0.95, Whitening.OPENRLHF);
        List<String> lines = Files.readAllLines(white);
        double sum = 0;
        for (String l : lines) {
            for (double v : numbers(read(l).get("advantages"))) {
                sum += v;
            }
        }
        assertThat(sum).isCloseTo(0.0, within(1e-9));
        // returns are not whitened
        assertThat(numbers(read(lines.getFirst()).get("returns"))).containsExactly(new double[] {0.96575, 0.985, 1.0}, within(1e-9));
    }

    @Test
    void badGaeRows() throws Exception {
        for (String[] c : List.of(
                new String[] {"{\"rewards\": [1, 2], \"values\": [1]}", "\"rewards\" has 2 numbers and \"values\" 1"},
                new String[] {"{\"rewards\": [], \"values\": []}", "\"rewards\" is empty"},
                new String[] {"{\"values\": [1]}", "missing \"rewards\""},
                new String[] {"{\"rewards\": [1, \"x\"], \"values\": [1, 2]}", "\"rewards\" item 2 must be a number"},
                new String[] {"{\"rewards\": 1, \"values\": [1]}", "\"rewards\" must be a list of numbers"})) {
            Path in = file("{\"rewards\": [1], \"values\": [0]}", c[0]);
            assertThatThrownBy(() -> AdvantageFile.gae(in, dir.resolve("g.jsonl"), 1, 1, Whitening.NONE))
                    .as(c[0]).isInstanceOf(BadInputException.class).hasMessageStartingWith(in + ":2: ").hasMessageContaining(c[1]);
        }
        assertThat(dir.resolve("g.jsonl")).doesNotExist();
        Path one = file("{\"rewards\": [1], \"values\": [0]}");
        assertThatThrownBy(() -> AdvantageFile.gae(one, dir.resolve("g.jsonl"), 1, 1, Whitening.VERL)).hasMessageContaining("at least two tokens");
        assertThatThrownBy(() -> AdvantageFile.gae(one, dir.resolve("g.jsonl"), 2, 1, Whitening.NONE)).hasMessageContaining("--gamma");
    }

    private static JsonNode read(String line) {
        try {
            return JSON.readTree(line);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static double[] numbers(JsonNode a) {
        double[] out = new double[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i).asDouble();
        }
        return out;
    }
}
