package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The launcher's JVM flags by command, read by running its own shell functions ({@code quick_jit}) and its
 * unified-logging block on the arguments, without starting a JVM: {@code mcp} sends the JVM's warnings to stderr (its
 * stdout carries protocol messages only), and only {@code mcp --stdio}, started per session by a desktop host, runs
 * on C1 alone ({@code mcp --port} is a long-lived server).
 */
class LauncherFlagsTest {

    /** "JIT XLOG" for these arguments, as the launcher decides them. */
    private static String flags(String args) throws Exception {
        assumeTrue(new File("/bin/bash").canExecute(), "no bash here: the launcher is a bash script");
        String script = "set -- " + args + "\n"
                + "eval \"$(sed -n '/^commands()/,/^}/p;/^quick_jit()/,/^}/p' \"$LAUNCHER\")\"\n"
                + "eval \"$(sed -n '/^XLOG=()/,/^esac/p' \"$LAUNCHER\")\"\n"
                + "if quick_jit \"$@\"; then j=C1; else j=full; fi\n"
                + "echo \"$j ${XLOG[*]:-none}\"\n";
        ProcessBuilder pb = new ProcessBuilder("/bin/bash", "-c", script).redirectErrorStream(true);
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
}
