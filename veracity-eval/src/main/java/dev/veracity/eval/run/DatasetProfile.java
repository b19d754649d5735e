package dev.veracity.eval.run;

import java.util.List;
import java.util.Locale;

/**
 * How a dataset is scored and answered: its default metrics (those of its official script) and whether it
 * expects every valid answer of an ambiguous question (MADAM-RAG's datasets).
 *
 * @param metrics     metric names, the first one the headline
 * @param multiAnswer answers are sets in "All Correct Answers: [...]" form, scored against the distinct gold
 *                    answers and the wrong ones
 */
public record DatasetProfile(List<String> metrics, boolean multiAnswer) {

    public static DatasetProfile of(String dataset) {
        return switch (dataset.toLowerCase(Locale.ROOT)) {
            case "ramdocs", "ambigdocs", "faitheval" -> new DatasetProfile(List.of("strict-multi"), true);
            case "hotpotqa", "2wikimultihopqa" -> new DatasetProfile(List.of("em", "f1"), false);
            case "musique" -> new DatasetProfile(List.of("musique-em", "musique-f1"), false);
            case "nq-open" -> new DatasetProfile(List.of("nq-em", "substring"), false);
            case "triviaqa" -> new DatasetProfile(List.of("triviaqa-em", "triviaqa-f1"), false);
            case "popqa" -> new DatasetProfile(List.of("substring"), false);
            case "fever" -> new DatasetProfile(List.of("fever-acc"), false);
            case "crag" -> new DatasetProfile(List.of("truthfulness", "em"), false);
            default -> new DatasetProfile(List.of("em", "f1"), false);
        };
    }

    public DatasetProfile withMetrics(List<String> names) {
        return names == null || names.isEmpty() ? this : new DatasetProfile(List.copyOf(names), multiAnswer);
    }
}
