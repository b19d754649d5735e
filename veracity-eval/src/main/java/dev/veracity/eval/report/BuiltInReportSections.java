package dev.veracity.eval.report;

import dev.veracity.eval.results.ResultLine;
import dev.veracity.plugin.Plugins;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The project's question-page sections, contributed as a plug-in contributes them, shown first: the candidates a
 * method chose among (Reasoning Court's agents before its judge, with their steps and whether they were stopped),
 * the method's per-question signals (MARCH's verification, C-3PO's and the compositions' figures) and where the
 * question's documents came from (the index's hits with their scores, and whether a gold answer is in them).
 */
public final class BuiltInReportSections implements ReportSectionProvider, Plugins.Ordered {

    @Override
    public List<QuestionSection> sections() {
        return List.of(new Candidates(), new Signals(), new Retrieved());
    }

    @Override
    public int order() {
        return BUILT_IN;
    }

    /** The answers of the agents the method chose among, in agent order. */
    static final class Candidates implements QuestionSection {
        @Override
        public String name() {
            return "candidates";
        }

        @Override
        public Optional<Section> render(String method, ResultLine line, List<dev.veracity.trace.CallRecord> calls) {
            List<ResultLine.Candidate> candidates = line.candidates();
            if (candidates == null || candidates.isEmpty()) {
                return Optional.empty();
            }
            List<List<String>> rows = new ArrayList<>();
            for (ResultLine.Candidate c : candidates) {
                rows.add(List.of(text(c.agent()), text(c.answer()), text(c.steps()),
                        Boolean.TRUE.equals(c.forced()) ? "stopped at the step limit" : "finished", text(c.note())));
            }
            return Optional.of(new Section("Candidates the method chose among",
                    List.of("agent", "answer", "steps", "how it ended", "note"), rows,
                    List.of("Chosen: " + text(line.prediction()))));
        }
    }

    /** The numbers the method reported for this question. */
    static final class Signals implements QuestionSection {
        @Override
        public String name() {
            return "signals";
        }

        @Override
        public Optional<Section> render(String method, ResultLine line, List<dev.veracity.trace.CallRecord> calls) {
            Map<String, Double> signals = line.signals();
            if (signals == null || signals.isEmpty()) {
                return Optional.empty();
            }
            List<List<String>> rows = new ArrayList<>();
            signals.forEach((k, v) -> rows.add(List.of(k, v == null ? "" : number(v))));
            return Optional.of(new Section("Method signals", List.of("signal", "value"), rows, List.of()));
        }
    }

    /** The question's documents: the index's hits in rank order with their scores, and whether they hold an answer. */
    static final class Retrieved implements QuestionSection {
        @Override
        public String name() {
            return "retrieval";
        }

        @Override
        public Optional<Section> render(String method, ResultLine line, List<dev.veracity.trace.CallRecord> calls) {
            ResultLine.Retrieval r = line.retrieval();
            if (r == null || r.source() == null) {
                return Optional.empty();
            }
            List<String> ids = r.ids() == null ? List.of() : r.ids();
            List<Double> scores = r.scores() == null ? List.of() : r.scores();
            List<List<String>> rows = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                Double score = i < scores.size() ? scores.get(i) : null;
                rows.add(List.of(String.valueOf(i + 1), text(ids.get(i)), score == null ? "" : number(score)));
            }
            List<String> notes = new ArrayList<>();
            notes.add(switch (r.source()) {
                case "index" -> ids.size() + " passage" + (ids.size() == 1 ? "" : "s") + " retrieved from the index"
                        + (r.ms() == null ? "" : " in " + number(r.ms()) + " ms") + ".";
                case "dataset" -> "The dataset's own documents" + (r.documents() == null ? "" : " (" + r.documents() + ")")
                        + ", no retrieval.";
                case "none" -> "No documents: the method answers closed-book.";
                default -> "Documents from " + r.source() + ".";
            });
            if (r.answerFound() != null) {
                notes.add(r.answerFound() ? "A gold answer is in these documents." : "No gold answer is in these documents.");
            }
            return Optional.of(new Section("Retrieved passages", rows.isEmpty() ? List.of() : List.of("rank", "id", "score"),
                    rows, notes));
        }
    }

    private static String text(Object v) {
        return v == null ? "" : v.toString();
    }

    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.4g", v);
    }
}
