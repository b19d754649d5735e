package dev.veracity.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.trace.TraceSink;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ModelOptionsTest {

    @TempDir
    Path dir;

    private ModelOptions parse(String... args) throws Exception {
        Path config = dir.resolve("empty.properties");
        Files.writeString(config, "");
        ModelOptions options = new ModelOptions();
        String[] all = new String[args.length + 4];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--config";
        all[args.length + 1] = config.toString();
        all[args.length + 2] = "--cache";
        all[args.length + 3] = "off";
        new CommandLine(options).parseArgs(all);
        return options;
    }

    @Test
    void cacheReplayUnparseableReachesTheClient() throws Exception {
        try (Stack stack = new Stack(parse("--cache-replay-unparseable").resolve(), TraceSink.NONE)) {
            assertThat(stack.config.cacheReplayUnparseable()).isTrue();
            assertThat(stack.client.replayUnparseable()).isTrue();
        }
        assertThat(parse("--cache-replay-unparseable=false").resolve().cacheReplayUnparseable()).isFalse();
        if (System.getenv("VERACITY_CACHE_REPLAY_UNPARSEABLE") == null) {
            try (Stack stack = new Stack(parse().resolve(), TraceSink.NONE)) {
                assertThat(stack.client.replayUnparseable()).isFalse();
            }
        }
    }
}
