package dev.veracity.cli;

import dev.veracity.retrieval.Embedder;
import dev.veracity.retrieval.LocalEmbedders;
import dev.veracity.retrieval.bench.EmbeddingBenchmark;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./veracity bench embed}: passage embedding throughput, in process or on an {@code --embedder} server. */
@Command(name = "embed", mixinStandardHelpOptions = true,
        description = "Embed generated 100-word passages and print passages/s and CPU time per passage (bge-small in"
                + " process, or the --embedder server's model).")
final class EmbedBench implements Callable<Integer> {

    @Option(names = "--passages", defaultValue = "2000", description = "Passages to embed (default ${DEFAULT-VALUE}).")
    long passages;

    @Mixin
    EmbedderOptions embedding;

    @Override
    public Integer call() {
        if (passages < 1) {
            throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "--passages must be >= 1");
        }
        Embedder embedder = embedding.remote() ? embedding.server(embedding.model) : LocalEmbedders.bgeSmall();
        EmbeddingBenchmark.run(embedder, embedder.name() + (embedding.remote() ? " at " + embedding.url : ""), passages,
                System.out);
        return 0;
    }
}
