package dev.veracity.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.ramdocs.RamdocsBuilder;
import dev.veracity.eval.ramdocs.SourceReader;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./veracity ramdocs build}: RAMDocs-style records from ambiguous questions (MADAM-RAG, Section 3). */
@Command(name = "ramdocs", mixinStandardHelpOptions = true, description = "Build RAMDocs-style datasets.",
        subcommands = RamdocsCommand.Build.class)
final class RamdocsCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        System.err.println("usage: ramdocs build --source FILE --out FILE [--seed S] [--mode random|imbalance|misinformation]");
        return 2;
    }

    @Command(name = "build", mixinStandardHelpOptions = true, description = {
            "Sample 1-3 valid answers, 1-3 supporting documents each, 0-2 misinformation (same-type entity swap) and"
                    + " 0-2 noise documents per question; or the controlled subsets of Sections 6.2 (--mode imbalance"
                    + " --level K: answers with 1 and K documents) and 6.3 (--mode misinformation --level K: K misinformation documents).",
            "Source (JSONL or JSON array): {question, answers: [{answer, documents: [text...], entity?}], noise?: [text...]}"
                    + " or AmbigDocs-like {question, documents: [{title, text, answer}]}."})
    static final class Build implements Callable<Integer> {

        @Option(names = "--source", required = true, description = "Source questions.")
        Path source;

        @Option(names = "--out", required = true, description = "Output JSONL in RAMDocs' format.")
        Path out;

        @Option(names = "--seed", defaultValue = "0", description = "Random seed (default ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--mode", defaultValue = "random", description = "random, imbalance or misinformation (default ${DEFAULT-VALUE}).")
        String mode;

        @Option(names = "--level", defaultValue = "1", description = "Imbalance: documents of the better-supported answer; misinformation: misinformation documents (1-3).")
        int level;

        @Option(names = "--limit", defaultValue = "0", description = "Most records to write (0 = all; the paper's subsets have 200).")
        int limit;

        @Override
        public Integer call() throws Exception {
            RamdocsBuilder.Mode m;
            try {
                m = RamdocsBuilder.Mode.valueOf(mode.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                System.err.println("--mode must be random, imbalance or misinformation, was '" + mode + "'");
                return 2;
            }
            var sources = SourceReader.read(source);
            List<ObjectNode> recs = RamdocsBuilder.build(sources,
                    new RamdocsBuilder.Options(m, m == RamdocsBuilder.Mode.RANDOM ? 0 : level, seed, limit));
            if (recs.isEmpty()) {
                // never an empty file without a word: say why no question fitted
                throw new IllegalArgumentException("no record built: none of the " + sources.size() + " source questions"
                        + " fits --mode " + mode + (m == RamdocsBuilder.Mode.RANDOM ? "" : " --level " + level) + " ("
                        + switch (m) {
                            case RANDOM -> "each needs at least one answer with a document";
                            case IMBALANCE -> "each needs two valid answers, one of them with " + level + " documents";
                            case MISINFORMATION -> "each needs two valid answers and " + level
                                    + " documents that can be rewritten with a wrong answer";
                        } + "); use a lower --level or a source with more documents per answer");
            }
            if (out.toAbsolutePath().getParent() != null) {
                Files.createDirectories(out.toAbsolutePath().getParent());
            }
            ObjectMapper json = new ObjectMapper();
            try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
                for (ObjectNode r : recs) {
                    w.write(json.writeValueAsString(r));
                    w.write('\n');
                }
            }
            System.out.println("wrote " + recs.size() + " records to " + out + (recs.size() < sources.size()
                    ? " (" + (sources.size() - recs.size()) + " source questions did not fit --mode " + mode + ")" : ""));
            return 0;
        }
    }
}
