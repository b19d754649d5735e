package dev.veracity.cli;

import dev.veracity.retrieval.bench.EmbeddingBenchmark;
import dev.veracity.retrieval.embed.OnnxEmbedder;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./veracity bench embed}: passage embedding throughput of the local model. */
@Command(name = "embed", mixinStandardHelpOptions = true,
        description = "Embed generated 100-word passages and print passages/s and CPU time per passage.")
final class EmbedBench implements Callable<Integer> {

    @Option(names = "--passages", defaultValue = "2000", description = "Passages to embed (default ${DEFAULT-VALUE}).")
    long passages;

    @Override
    public Integer call() {
        if (passages < 1) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "--passages must be >= 1");
        }
        OnnxEmbedder embedder = OnnxEmbedder.bgeSmall();
        EmbeddingBenchmark.run(embedder, embedder.name(), passages, System.out);
        return 0;
    }
}
