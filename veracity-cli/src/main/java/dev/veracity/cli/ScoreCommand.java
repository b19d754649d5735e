package dev.veracity.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.metrics.ScoreFile;
import dev.veracity.eval.metrics.ScoreFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./veracity score}: a benchmark metric over a file of predictions, as the official scripts score it. */
@Command(name = "score", mixinStandardHelpOptions = true,
        description = "Score {\"id\", \"prediction\", \"gold\": [...]} lines (\"wrong\": [...] for strict-multi);"
                + " writes one {\"id\", \"score\"} line per input and prints the aggregate as JSON.")
final class ScoreCommand implements Callable<Integer> {

    @Option(names = "--metric", required = true, paramLabel = "NAME",
            description = "em, f1, nq-em, triviaqa-em, triviaqa-f1, musique-em, musique-f1, substring, fever-acc,"
                    + " strict-multi, truthfulness")
    String metric;

    @Option(names = "--input", required = true, paramLabel = "FILE", description = "Predictions, JSON lines.")
    Path input;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "Per-item scores, JSON lines.")
    Path out;

    @Override
    public Integer call() throws Exception {
        ObjectNode aggregate;
        try {
            aggregate = ScoreFile.score(input, out, metric);
        } catch (ScoreFileException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        System.out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(aggregate));
        return 0;
    }
}
