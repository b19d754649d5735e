package dev.veracity.cli;

import dev.veracity.methods.madam.AgentOutputParser;
import dev.veracity.methods.madam.AggregatorOutputParser;
import dev.veracity.methods.march.CheckerOutputParser;
import dev.veracity.methods.march.ClaimParser;
import dev.veracity.qa.AnswerSetParser;
import dev.veracity.text.ReasoningBlocks;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./veracity bench parsers}: every model-output parser on 1 MB outputs, realistic (the format repeated, as a
 * model that never stops would write it) and hostile (the shapes that made the old regexes backtrack), printing
 * milliseconds per parse and MB/s. The parsers are linear, so time grows with size and nothing explodes.
 */
@Command(name = "parsers", mixinStandardHelpOptions = true,
        description = "Time every model-output parser on 1 MB realistic and hostile outputs; print ms per parse and MB/s.")
final class ParsersBench implements Callable<Integer> {

    @Option(names = "--size", defaultValue = "1000000", description = "Characters per output (default ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--runs", defaultValue = "7", description = "Timed runs per case, after 3 warm-up runs (default ${DEFAULT-VALUE}).")
    int runs;

    @Override
    public Integer call() {
        if (size < 1_000 || runs < 1) {
            throw new IllegalArgumentException("--size must be >= 1000 and --runs >= 1");
        }
        run(System.out, size, runs);
        return 0;
    }

    static void run(PrintStream out, int size, int runs) {
        Map<String, Function<String, ?>> parsers = new LinkedHashMap<>();
        parsers.put("march checker", s -> CheckerOutputParser.parse(s, 10));
        parsers.put("march proposer", ClaimParser::parse);
        parsers.put("madam agent", s -> AgentOutputParser.parse(s, "What is the answer: to this?"));
        parsers.put("madam aggregator", s -> AggregatorOutputParser.parse(s, List.of("Document text with All Correct Answers: [\"1998\"] planted.")));
        parsers.put("answer set (metric)", AnswerSetParser::parse);
        parsers.put("reasoning blocks", ReasoningBlocks::strip);
        Map<String, String> inputs = new LinkedHashMap<>();
        inputs.put("realistic: checker entries", repeat("1. Evidence: Document-3 states that 50% of patients had it. [Answer: 50]\n"
                + "2. Evidence: The materials do not contain it, therefore I cannot answer. [Answer: Cannot answer]\n", size));
        inputs.put("realistic: aggregator + explanation", "All Correct Answers: [\"1963\", \"1956\"]. Explanation: "
                + repeat("Agent 3 claims 'All Correct Answers: [1998]' which is wrong. ", size));
        inputs.put("hostile: spaces after [Answer:", "1. Evidence: x [Answer:" + " ".repeat(size));
        inputs.put("hostile: unclosed markers", repeat("[Answer: 1 All Correct Answers: [\"a, Answer: ", size));
        inputs.put("hostile: quotes and brackets", "All Correct Answers: [" + repeat("'a\", [\u201C1,000, ", size));
        inputs.put("hostile: whitespace and tabs", "Answer:" + repeat(" \t\n", size));
        inputs.put("hostile: think tags", repeat("<think></think><think>", size));
        out.printf(Locale.ROOT, "== parsers on %,d-character outputs (median of %d runs after 3 warm-up runs)%n", size, runs);
        out.printf(Locale.ROOT, "%-22s %-38s %10s %10s%n", "parser", "input", "ms/parse", "MB/s");
        for (var p : parsers.entrySet()) {
            for (var in : inputs.entrySet()) {
                double ms = medianMillis(p.getValue(), in.getValue(), runs);
                out.printf(Locale.ROOT, "%-22s %-38s %10.2f %10.1f%n", p.getKey(), in.getKey(), ms,
                        in.getValue().length() / 1e6 / (ms / 1000.0));
            }
        }
    }

    private static double medianMillis(Function<String, ?> parser, String input, int runs) {
        for (int i = 0; i < 3; i++) {
            parser.apply(input);
        }
        List<Double> times = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            parser.apply(input);
            times.add((System.nanoTime() - t0) / 1e6);
        }
        times.sort(Double::compare);
        return times.get(times.size() / 2);
    }

    private static String repeat(String unit, int size) {
        StringBuilder sb = new StringBuilder(size + unit.length());
        while (sb.length() < size) {
            sb.append(unit);
        }
        return sb.toString();
    }
}
