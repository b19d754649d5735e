package dev.veracity.cli.report;

import dev.veracity.eval.report.QuestionSection;
import dev.veracity.eval.report.ReportSectionProvider;
import dev.veracity.eval.results.ResultLine;
import dev.veracity.eval.results.ResultsJson;
import dev.veracity.method.DetailKey;
import dev.veracity.plugin.Plugins;
import java.util.List;
import java.util.Optional;

/**
 * The methods' question-page sections, shown before the report's generic ones: each reads its method's detail from
 * the result line and shows nothing for a line without it.
 */
public final class MethodSections implements ReportSectionProvider, Plugins.Ordered {

    @Override
    public List<QuestionSection> sections() {
        return List.of(new MarchSection(), new CourtSection(), new MadamSection(), new C3poSection(),
                new TruthRlSection());
    }

    @Override
    public int order() {
        return BUILT_IN;
    }

    /** The detail of the line under {@code key}, or empty when the line has none or it does not read as one. */
    static <T> Optional<T> detail(ResultLine line, DetailKey<T> key) {
        return line.details() == null ? Optional.empty() : key.read(ResultsJson.tree(line.details()));
    }

    /** A text quoted in a sentence: 'text', or "no answer" when blank. */
    static String quoted(String s) {
        return s == null || s.isBlank() ? "no answer" : "'" + s.strip() + "'";
    }
}
