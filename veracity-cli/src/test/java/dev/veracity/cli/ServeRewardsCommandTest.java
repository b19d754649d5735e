package dev.veracity.cli;

import static dev.veracity.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.veracity.cli.CliRun.Result;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code veracity serve-rewards}: as a process that gets SIGTERM, and its refusals in-process. */
class ServeRewardsCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theCommandServesTheRewardAndStopsWithinSecondsOnSigtermFreeingThePort() throws Exception {
        try (CliProcess serve = CliProcess.start("serve-rewards", "--reward", "truthrl-ternary", "--port", "0",
                "--stop-grace-seconds", "600")) {
            String base = serve.url("Serving reward truthrl-ternary on ");
            assertThat(base).startsWith("http://127.0.0.1:");
            int port = URI.create(base).getPort();
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/get_reward"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                            "{\"query\": [\"Q: where?\\n\\\\boxed{Paris}<|im_end|>\"], \"prompts\": [\"Q: where?\\n\"], \"labels\": [\"Paris\"]}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(r.body()).get("rewards").get(0).asDouble()).isEqualTo(1.0);
            assertThat(serve.out()).anySatisfy(l -> assertThat(l).contains("--reward.remote_url " + base + "/get_reward"));

            serve.terminate();
            // Idle, it stops at once: 20 s is far beyond a JVM's exit on a busy machine and short of what a stop that
            // waited would take (the 600 s grace, the 30 s idle timeout of the client's open connection).
            assertThat(serve.process().waitFor(20, TimeUnit.SECONDS)).as("stopped; stderr " + serve.err()).isTrue();
            try (ServerSocket again = new ServerSocket(port, 50, InetAddress.getLoopbackAddress())) {
                assertThat(again.getLocalPort()).isEqualTo(port);
            }
            serve.awaitErr(); // a guard: the reader ends with the process
            assertThat(serve.err()).anySatisfy(l -> assertThat(l).contains(" INFO stopped in "));
        }
    }

    @Test
    void aTakenPortAnUnknownRewardAndMisplacedOptionsAreOneLineWithExitTwo() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Result busy = run("serve-rewards", "--reward", "em", "--port", Integer.toString(taken.getLocalPort()));
            assertThat(busy.code()).isEqualTo(2);
            assertThat(busy.err().strip()).startsWith("veracity serve-rewards: cannot listen on that port (127.0.0.1:"
                    + taken.getLocalPort() + ": ").endsWith("pick another --port or stop what uses it").doesNotContain("\n");
        }
        Result unknown = run("serve-rewards", "--reward", "exact", "--port", "0");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err()).startsWith("veracity serve-rewards: unknown reward 'exact'; valid rewards: em, f1");
        Result option = run("serve-rewards", "--reward", "em", "--port", "0", "--option", "samples=3");
        assertThat(option.code()).isEqualTo(2);
        assertThat(option.err()).contains("--option sets MARCH's settings; reward em has none");
    }

    @Test
    void aMarchRewardWhoseModelServerIsDownStopsBeforeServing() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Result r = run("serve-rewards", "--reward", "march-ztr", "--port", "0", "--llm-base-url", "http://127.0.0.1:" + port + "/v1",
                "--model", "m", "--cache", "off", "--trace-file", Path.of(System.getProperty("java.io.tmpdir"),
                        "veracity-serve-rewards-test-" + ProcessHandle.current().pid() + ".db").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith("veracity serve-rewards: cannot reach the model server at http://127.0.0.1:" + port);
        assertThat(r.out()).doesNotContain("Serving");
    }
}
