package dev.veracity.rl.reward;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.rl.jsonl.AtomicJsonlWriter;
import dev.veracity.rl.jsonl.BadInputException;
import dev.veracity.rl.jsonl.JsonlRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The file door ({@code veracity reward NAME --in FILE --out FILE}): each input line {@code {"question", "response",
 * "label"}} becomes the same line plus {@code "reward"} and {@code "details"} ({@link RewardRows}), in input order.
 * <p>The whole input is checked first (JSON, fields, label, and what the reward itself needs, e.g. MARCH's
 * documents): the first problem is a {@link BadInputException} naming the file and line, and nothing is scored or
 * written. Then rows are scored in chunks ({@link Reward#scoreAll}, concurrent for model-calling rewards) and written to
 * a temporary file that replaces the output only when every row is done. The file is read twice rather than held.
 */
public final class RewardFile {

    /** Rows scored at once: enough to keep a model's concurrency limit busy, small enough to hold in memory. */
    static final int CHUNK = 512;

    /** What a run did: rows scored, their mean reward, and how many are fallbacks. */
    public record Summary(String reward, long rows, double mean, long fallbacks) {
    }

    private RewardFile() {
    }

    public static Summary score(Path in, Path out, Reward reward) {
        return score(in, out, reward, () -> { });
    }

    /**
     * As {@link #score(Path, Path, Reward)}, running {@code afterCheck} once the input is known to be good and
     * before the first row is scored (the command line checks its model server there).
     */
    public static Summary score(Path in, Path out, Reward reward, Runnable afterCheck) {
        JsonlRows.forEach(in, (line, row) -> check(in, line, row, reward));
        afterCheck.run();
        long[] counts = new long[2];
        double[] sum = new double[1];
        try (AtomicJsonlWriter w = new AtomicJsonlWriter(out)) {
            List<ObjectNode> rows = new ArrayList<>(CHUNK);
            List<RewardInput> inputs = new ArrayList<>(CHUNK);
            Runnable flush = () -> {
                List<RewardResult> results = reward.scoreAll(inputs);
                for (int i = 0; i < rows.size(); i++) {
                    RewardResult r = results.get(i);
                    w.write(RewardRows.scored(rows.get(i), r));
                    counts[0]++;
                    counts[1] += r.isFallback() ? 1 : 0;
                    sum[0] += r.score();
                }
                rows.clear();
                inputs.clear();
            };
            JsonlRows.forEach(in, (line, row) -> {
                rows.add(row);
                inputs.add(RewardRows.input(row));
                if (rows.size() == CHUNK) {
                    flush.run();
                }
            });
            flush.run();
            w.commit();
        }
        return new Summary(reward.name(), counts[0], counts[0] == 0 ? 0.0 : sum[0] / counts[0], counts[1]);
    }

    private static void check(Path file, long line, ObjectNode row, Reward reward) {
        RewardInput input;
        try {
            input = RewardRows.input(row);
        } catch (IllegalArgumentException e) {
            throw BadInputException.at(file, line, e.getMessage());
        }
        Optional<String> problem = reward.problem(input);
        if (problem.isPresent()) {
            throw BadInputException.at(file, line, problem.get());
        }
    }
}
