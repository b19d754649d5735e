package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The launcher's JVM flags by command, read by running its own shell functions ({@code waits_on_models},
 * {@code quick_jit}) and its carriers and unified-logging blocks on the arguments, without starting a JVM: {@code mcp}
 * sends the JVM's warnings to stderr (its stdout carries protocol messages only), and only {@code mcp --stdio},
 * started per session by a desktop host, runs on C1 alone ({@code mcp --port} is a long-lived server); the commands
 * that wait on model servers ask for two carriers per core ({@link Carriers}), whatever {@code VERACITY_QUICK_JIT}
 * says.
 */
class LauncherFlagsTest {

    /** "JIT XLOG" for these arguments, as the launcher decides them. */
    private static String flags(String args) throws Exception {
        return launcher(args, Map.of(), "if quick_jit \"$@\"; then j=C1; else j=full; fi\n"
                + "echo \"$j ${XLOG[*]:-none}\"\n");
    }

    /** The carriers flag for these arguments in this environment, as the launcher decides it ("none" without). */
    private static String carriers(String args, Map<String, String> env) throws Exception {
        return launcher(args, env, "echo \"${CARRIERS[*]:-none}\"\n");
    }

    /** Runs {@code show} after the launcher's functions and blocks that pick the flags, on these arguments. */
    private static String launcher(String args, Map<String, String> env, String show) throws Exception {
        assumeTrue(new File("/bin/bash").canExecute(), "no bash here: the launcher is a bash script");
        String script = "set -- " + args + "\n"
                + "eval \"$(sed -n '/^commands()/,/^}/p;/^waits_on_models()/,/^}/p;/^quick_jit()/,/^}/p'"
                + " \"$LAUNCHER\")\"\n"
                + "eval \"$(sed -n '/^CARRIERS=()/,/^fi/p' \"$LAUNCHER\")\"\n"
                + "eval \"$(sed -n '/^XLOG=()/,/^esac/p' \"$LAUNCHER\")\"\n"
                + show;
        ProcessBuilder pb = new ProcessBuilder("/bin/bash", "-c", script).redirectErrorStream(true);
        pb.environment().remove("VERACITY_QUICK_JIT");
        pb.environment().putAll(env);
        pb.environment().put("LAUNCHER", CliProcess.LAUNCHER.toAbsolutePath().toString());
        Process p = pb.start();
        p.getOutputStream().close();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("bash did not end");
        }
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    }

    @Test
    void mcpSendsTheJvmsWarningsToStderrAndOnlyStdioRunsOnC1() throws Exception {
        String stderrOnly = "-Xlog:disable -Xlog:all=warning:stderr -Xlog:aot=off:stderr -Xlog:cds=off:stderr";
        assertThat(flags("mcp --stdio --model m")).isEqualTo("C1 " + stderrOnly);
        assertThat(flags("mcp --port 8090")).isEqualTo("full " + stderrOnly);
        assertThat(flags("eval --dataset nq")).isEqualTo("C1 none");
        assertThat(flags("serve --port 8000")).isEqualTo("full none");
    }

    @Test
    void theCommandsThatWaitOnModelServersAskForTwoCarriersPerCoreWhateverTheJitSetting() throws Exception {
        String two = "-Dveracity.carriersPerCore=2";
        assertThat(carriers("eval --dataset nq", Map.of())).isEqualTo(two);
        assertThat(carriers("bench run --method c3po", Map.of())).isEqualTo(two);
        assertThat(carriers("mcp --stdio --model m", Map.of())).isEqualTo(two);
        assertThat(carriers("eval --dataset nq", Map.of("VERACITY_QUICK_JIT", "0"))).isEqualTo(two);
        assertThat(carriers("serve --port 8000", Map.of())).isEqualTo("none");
        assertThat(carriers("mcp --port 8090", Map.of())).isEqualTo("none");
        assertThat(carriers("index --passages p", Map.of("VERACITY_QUICK_JIT", "1"))).isEqualTo("none");
    }
}
