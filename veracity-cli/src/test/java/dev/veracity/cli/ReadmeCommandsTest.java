package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every command of every README either runs as written, in {@link ReadmeIT}, or is marked with what it needs; this
 * checks the marks and the commands' form, fast, before the integration test runs them.
 */
class ReadmeCommandsTest {

    @Test
    void findsTheCommandsOfEveryReadme() {
        List<Path> files = ReadmeCommands.files();
        assertThat(files).contains(Path.of("README.md"), Path.of("veracity-rl/README.md"),
                Path.of("veracity-server/README.md"), Path.of("examples/cite-check/README.md"), Path.of("docs/parsers.md"));
        List<ReadmeCommands.Command> quickStart = ReadmeIT.quickStart();
        assertThat(quickStart).extracting(ReadmeCommands.Command::words).containsExactly(
                "./veracity demo",
                "./veracity report .veracity/demo/* --out report",
                "./veracity compare .veracity/demo/* --baseline .veracity/demo/standard-rag");
    }

    @Test
    void readsCommandsAsAShellDoes() {
        List<ReadmeCommands.Command> c = ReadmeCommands.parse(Path.of("X.md"), List.of(
                "text", "```bash", "# a comment line", "./veracity eval --method a \\", "    --out runs/a   # note # two",
                "", "curl -d '{\"a\": \"#1\"}' http://x   # needs: a server", "```", "```java", "./veracity no", "```",
                "  ```bash", "  ./veracity methods", "  ```"));
        assertThat(c).extracting(ReadmeCommands.Command::words)
                .containsExactly("./veracity eval --method a --out runs/a", "curl -d '{\"a\": \"#1\"}' http://x",
                        "./veracity methods");
        assertThat(c.get(0).line()).isEqualTo(4);
        assertThat(c.get(0).text()).isEqualTo("./veracity eval --method a \\\n    --out runs/a   # note # two");
        assertThat(c.get(0).needs()).isEmpty();
        assertThat(c.get(1).needs()).contains("a server");
        assertThat(command("./veracity x   # what it does; needs: the internet").needs()).contains("the internet");
        assertThat(command("./veracity reproduce --list   # the recipes, and what each needs: data").needs()).isEmpty();
        assertThat(c.get(2).line()).isEqualTo(13);

        // a quote left open goes on to the next line, as a JSON body written over several lines does
        List<ReadmeCommands.Command> json = ReadmeCommands.parse(Path.of("X.md"), List.of("```bash",
                "curl -s http://x -d '{", "  \"model\": \"a # b\"}'   # needs: a server", "./veracity methods", "```"));
        assertThat(json).hasSize(2);
        assertThat(json.get(0).text()).isEqualTo("curl -s http://x -d '{\n  \"model\": \"a # b\"}'   # needs: a server");
        assertThat(json.get(0).needs()).contains("a server");
    }

    @Test
    void aSynopsisIsNotACommand() {
        for (String synopsis : List.of("./veracity eval --method c3po ... --option strategy=planning",
                "./veracity compare a b [--format text|csv]", "./veracity serve --port 0 ...",
                "./veracity rl export --format verl|trl --out x", "./veracity demo --llm-base-url http://HOST:8000/v1")) {
            assertThat(ReadmeCommands.placeholder(command(synopsis))).as(synopsis).isPresent();
        }
        for (String real : List.of("./veracity search --index idx -k 10 \"who wrote hamlet\"",
                "curl -s http://x -H \"Authorization: Bearer $KEY\" -d '{\"model\": \"a...\"}'",
                "./veracity compare runs/a runs/b --format markdown")) {
            assertThat(ReadmeCommands.placeholder(command(real))).as(real).isEmpty();
        }
    }

    @Test
    void everyCommandRunsAsWrittenOrSaysWhatItNeeds() {
        List<String> wrong = new ArrayList<>();
        for (ReadmeCommands.Command c : ReadmeCommands.all()) {
            if (c.needs().isPresent()) {
                if (c.needs().get().isEmpty()) {
                    wrong.add(c.where() + ": '" + ReadmeCommands.MARK + "' says nothing: " + c.words());
                }
            } else if (!ReadmeIT.isCiCommand(c)) {
                ReadmeCommands.placeholder(c).ifPresent(why -> wrong.add(c.where() + ": " + why + " and the command"
                        + " is not marked '# " + ReadmeCommands.MARK + " ...': " + c.words()));
            }
        }
        assertThat(wrong).as("README commands that cannot run as written (ReadmeIT runs every unmarked one)").isEmpty();
    }

    @Test
    void theReadmesTestCommandIsWhatCiRuns() {
        List<ReadmeCommands.Command> ci = ReadmeCommands.all().stream().filter(ReadmeIT::isCiCommand).toList();
        assertThat(ci).as("README.md's test command, run by .ci/run (which runs ReadmeIT)").isNotEmpty()
                .allSatisfy(c -> assertThat(c.file()).isEqualTo(Path.of("README.md")));
        assertThat(ReadmeCommands.ciCommand()).isEqualTo("./mvnw -B verify");
    }

    @Test
    void aBusyPortIsNamedBeforeAnyCommandRunsWithTheCommandThatUsesIt() throws Exception {
        List<ReadmeCommands.Command> cs = List.of(command("./veracity sim --port 8000 --model qwen"),
                command("curl -s http://127.0.0.1:8001/v1/models"), command("./veracity serve --port 0 --model m"));
        assertThat(ReadmeIT.ports(cs)).containsExactly(8000, 8001);
        try (java.net.ServerSocket held = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            int port = held.getLocalPort();
            List<ReadmeCommands.Command> busy = List.of(command("./veracity sim --port " + port));
            assertThat(ReadmeIT.busyPorts(busy)).startsWith("port " + port + " is already in use on this machine")
                    .endsWith("; the README's commands use it (X.md:2): free it and run again").doesNotContain("\n");
        }
    }

    @Test
    void aServerOnAFreePortIsReadyAtItsOwnUrlNotTheUpstreams() {
        String serve = "veracity serve: upstream http://127.0.0.1:8000/v1\n"
                + "Serving 30 methods (and METHOD+march[+abstain]) on http://127.0.0.1:41234/v1 over qwen at"
                + " http://127.0.0.1:8000/v1 (stop with Ctrl-C or SIGTERM)\n";
        assertThat(ReadmeIT.ownPort(serve)).hasValue(41234);
        assertThat(ReadmeIT.ownPort("over qwen at http://127.0.0.1:8000/v1\n")).isEmpty();
        assertThat(ReadmeIT.ownPort("Veracity simulator listening on http://127.0.0.1:5123/v1 (models qwen)")).hasValue(5123);
    }

    private static ReadmeCommands.Command command(String line) {
        return ReadmeCommands.parse(Path.of("X.md"), List.of("```bash", line, "```")).getFirst();
    }
}
