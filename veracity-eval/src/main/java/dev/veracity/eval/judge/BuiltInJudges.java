package dev.veracity.eval.judge;

import dev.veracity.plugin.Plugins;
import java.util.List;

/**
 * The papers' judges, contributed as any plug-in contributes judges
 * ({@code META-INF/services/dev.veracity.eval.judge.JudgeProvider}), listed first.
 */
public final class BuiltInJudges implements JudgeProvider, Plugins.Ordered {

    @Override
    public List<Entry> judges() {
        return List.of(
                new Entry("crag", List.of("truthrl"), "TruthRL's CRAG judge (the authors' released prompt, or the paper's"
                        + " Table 11 with --judge-prompt paper)", CragJudge::new),
                new Entry("true-false", List.of("c3po", "c-3po"), "C-3PO's True/False judge (Appendix D.2)",
                        (client, options, text) -> new TrueFalseJudge(client, options)),
                new Entry("equivalence", List.of(), "a generic answer-equivalence judge (ours)",
                        (client, options, text) -> new EquivalenceJudge(client, options)));
    }

    @Override
    public int order() {
        return BUILT_IN;
    }
}
