package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Every command of {@code ./veracity}, nested and plug-in ones included, walked from the root: its help renders
 * without a picocli warning, it answers {@code --version}, and a bad command line is a few lines, never the usage.
 */
class CommandTreeTest {

    /** Every command's path from the root ("eval", "rl export", ...), picocli's help command aside. */
    private static Map<String, CommandLine> tree(CommandLine root) {
        Map<String, CommandLine> out = new LinkedHashMap<>();
        walk(root, "", out);
        return out;
    }

    private static void walk(CommandLine cl, String path, Map<String, CommandLine> out) {
        cl.getSubcommands().forEach((name, sub) -> {
            if (!sub.getCommandSpec().helpCommand()
                    && sub.getCommandSpec().name().equals(name)) { // an alias is the same command
                String p = path.isEmpty() ? name : path + " " + name;
                out.put(p, sub);
                walk(sub, p, out);
            }
        });
    }

    private record Ran(int code, String out, String err) {
    }

    private static Ran run(CommandLine cl, String... args) {
        return run(false, cl, args);
    }

    /** Runs the arguments in this JVM; with {@code tracer}, picocli's own stderr (its tracer's warnings) captured too. */
    private static synchronized Ran run(boolean tracer, CommandLine cl, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        PrintWriter o = new PrintWriter(out, true);
        PrintWriter e = new PrintWriter(err, true);
        cl.setOut(o);
        cl.setErr(e);
        tree(cl).values().forEach(sub -> sub.setOut(o).setErr(e));
        ByteArrayOutputStream traced = new ByteArrayOutputStream();
        PrintStream before = System.err;
        if (tracer) {
            System.setErr(new PrintStream(traced, true, StandardCharsets.UTF_8));
        }
        int code;
        try {
            code = cl.execute(args);
        } finally {
            System.setErr(before);
        }
        return new Ran(code, out.toString(), err + traced.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theTreeHoldsTheNestedCommands() {
        assertThat(tree(VeracityCli.commandLine()).keySet()).contains("eval", "sim", "rl export", "traces stats",
                "datasets list", "bench index").hasSizeGreaterThan(40);
    }

    @Test
    void everyCommandsHelpRendersWithoutAPicocliWarning() {
        List<String> warned = new ArrayList<>();
        for (String path : tree(VeracityCli.commandLine()).keySet()) {
            List<String> args = new ArrayList<>(List.of(path.split(" ")));
            args.add("--help");
            Ran r = run(true, VeracityCli.commandLine(), args.toArray(String[]::new));
            assertThat(r.code()).as(path + " --help").isZero();
            assertThat(r.out()).as(path + " --help").contains("Usage: veracity " + path);
            if (!r.err().isEmpty()) {
                warned.add(path + ": " + r.err().strip());
            }
        }
        assertThat(warned).as("stderr of --help").isEmpty();
    }

    @Test
    void everyCommandAnswersVersion() {
        String version = VeracityVersion.line(dev.veracity.config.BuildInfo.current());
        assertThat(version).startsWith("Veracity ").contains("Java " + Runtime.version().feature());
        List<String> silent = new ArrayList<>();
        for (String path : tree(VeracityCli.commandLine()).keySet()) {
            List<String> args = new ArrayList<>(List.of(path.split(" ")));
            args.add("--version");
            Ran r = run(VeracityCli.commandLine(), args.toArray(String[]::new));
            if (r.code() != 0 || !r.out().strip().equals(version)) {
                silent.add(path + " (exit " + r.code() + "): " + r.out().strip() + r.err().strip());
            }
        }
        assertThat(silent).as("commands whose --version does not print the build").isEmpty();
        assertThat(run(VeracityCli.commandLine(), "--version").out().strip()).isEqualTo(version);
    }

    /** A plug-in's command as its author might write it: no standard help options, a nested command. */
    @Command(name = "plugin-tool", description = "A plug-in's command.", subcommands = PluginTool.Inner.class)
    static final class PluginTool implements Runnable {
        @Override
        public void run() {
        }

        @Command(name = "inner", description = "Nested.")
        static final class Inner implements Runnable {
            @Override
            public void run() {
            }
        }
    }

    @Test
    void aPluginsCommandsAnswerVersionAndHelpTooWithoutDeclaringThem() {
        String version = VeracityVersion.line(dev.veracity.config.BuildInfo.current());
        CommandLine cl = VeracityCli.commandLine(List.of(PluginTool.class));
        assertThat(run(cl, "plugin-tool", "--version").out().strip()).isEqualTo(version);
        cl = VeracityCli.commandLine(List.of(PluginTool.class));
        assertThat(run(cl, "plugin-tool", "inner", "--version").out().strip()).isEqualTo(version);
        cl = VeracityCli.commandLine(List.of(PluginTool.class));
        assertThat(run(cl, "plugin-tool", "inner", "--help").out()).contains("Usage: veracity plugin-tool inner");
    }

    @Test
    void apiKeyIsOneLineNamingTheVariableOnEveryCommandThatTalksToAModel() {
        List<String> talking = new ArrayList<>();
        tree(VeracityCli.commandLine()).forEach((path, cl) -> {
            if (cl.getCommandSpec().options().stream().anyMatch(o -> o.longestName().endsWith("base-url"))) {
                talking.add(path);
            }
        });
        assertThat(talking).contains("eval", "ask", "serve", "demo", "rl rollout");
        for (String path : talking) {
            List<String> args = new ArrayList<>(List.of(path.split(" ")));
            args.addAll(List.of("--api-key", "sk-secret-123"));
            Ran r = run(VeracityCli.commandLine(), args.toArray(String[]::new));
            assertThat(r.code()).as(path).isEqualTo(2);
            assertThat(r.err().strip().lines()).as(path).containsExactly("veracity " + path + ": "
                    + VeracityCli.API_KEY_IS_NOT_A_FLAG);
            assertThat(r.err()).as(path).contains("VERACITY_API_KEY").doesNotContain("sk-secret-123");
            assertThat(run(VeracityCli.commandLine(), path.split(" ")[0], "--api-key=sk-secret-123").code()).isEqualTo(2);
        }
    }

    @Test
    void aMistypedOptionIsTheErrorAndWhatWasMeantNotTheWholeUsage() {
        Ran r = run(VeracityCli.commandLine(), "sim", "--prot", "0");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).doesNotContain("Usage:").contains("Unknown options: '--prot', '0'").contains("did you mean '--port'?")
                .contains("see 'veracity sim --help'");
        assertThat(r.err().lines().count()).isLessThanOrEqualTo(3);
    }

    @Test
    void anUnknownMethodGetsDidYouMean() {
        Ran r = run(VeracityCli.commandLine(), "methods", "standrd-rag");
        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.err()).as(r.out()).contains("unknown method 'standrd-rag'; did you mean 'standard-rag'?");
    }
}
