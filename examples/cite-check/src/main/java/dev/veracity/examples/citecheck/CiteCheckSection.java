package dev.veracity.examples.citecheck;

import dev.veracity.eval.report.QuestionSection;
import dev.veracity.eval.report.ReportSectionProvider;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.trace.CallRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * cite-check's section of the report's question pages: the answer the model gave, the passages it cited, and what the
 * method did with it (kept, or dropped because no cited passage contains it), read from the result line's raw output.
 */
public final class CiteCheckSection implements ReportSectionProvider, QuestionSection {

    @Override
    public List<QuestionSection> sections() {
        return List.of(this);
    }

    @Override
    public String name() {
        return CiteCheck.NAME;
    }

    @Override
    public Optional<Section> render(String method, ResultLine line, List<CallRecord> calls) {
        if (!method.equals(CiteCheck.NAME) && !method.startsWith(CiteCheck.NAME + "+")) {
            return Optional.empty();
        }
        Map<String, Double> signals = line.signals() == null ? Map.of() : line.signals();
        String verdict;
        String answer;
        String cited;
        switch (CitedAnswer.parse(line.raw())) {
            case CitedAnswer.Cited c -> {
                answer = c.answer();
                cited = c.passages().stream().map(String::valueOf).collect(Collectors.joining(", "));
                verdict = signals.getOrDefault("supported", 0.0) == 1.0 ? "kept: a cited passage contains it"
                        : "dropped: no cited passage contains it";
            }
            case CitedAnswer.Unknown u -> {
                answer = "unknown";
                cited = "";
                verdict = "abstained: the model found no passage";
            }
            case CitedAnswer.Unreadable r -> {
                answer = "";
                cited = "";
                verdict = "abstained: " + r.reason();
            }
        }
        return Optional.of(new Section("Citation check", List.of("model's answer", "cited passages", "what cite-check did"),
                List.of(List.of(answer, cited, verdict)), List.of()));
    }
}
