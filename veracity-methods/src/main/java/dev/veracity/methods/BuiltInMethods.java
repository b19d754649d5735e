package dev.veracity.methods;

import dev.veracity.methods.baseline.ChainOfThought;
import dev.veracity.methods.baseline.ChainOfThoughtSelfConsistency;
import dev.veracity.methods.baseline.NoRag;
import dev.veracity.methods.baseline.StandardRag;
import dev.veracity.methods.c3po.C3po;
import dev.veracity.methods.court.CotJudge;
import dev.veracity.methods.court.MultiAgentDebate;
import dev.veracity.methods.court.React;
import dev.veracity.methods.court.ReactCotSc;
import dev.veracity.methods.court.ReactJudges;
import dev.veracity.methods.court.ReactSelfRefine;
import dev.veracity.methods.court.ReasoningCourt;
import dev.veracity.methods.madam.MadamRag;
import dev.veracity.methods.madam.baseline.AstuteRag;
import dev.veracity.methods.madam.baseline.SelfReflection;
import dev.veracity.methods.madam.baseline.SpeculativeRag;
import dev.veracity.methods.march.MarchMethod;
import dev.veracity.methods.truthrl.TruthRl;
import dev.veracity.plugin.MethodProvider;
import dev.veracity.plugin.Plugins;
import java.util.List;

/**
 * The five papers' methods and their baselines, contributed as any plug-in contributes methods
 * ({@code META-INF/services/dev.veracity.plugin.MethodProvider}), listed first.
 */
public final class BuiltInMethods implements MethodProvider, Plugins.Ordered {

    @Override
    public List<Entry> methods() {
        return List.of(
                new Entry("no-rag", NoRag::new),
                new Entry("standard-rag", StandardRag::new),
                new Entry("cot", ChainOfThought::new),
                new Entry("cot-sc", ChainOfThoughtSelfConsistency::new),
                new Entry("madam-rag", MadamRag::new),
                new Entry("self-reflection", SelfReflection::new),
                new Entry("astute-rag", AstuteRag::new),
                new Entry("speculative-rag", SpeculativeRag::new),
                new Entry("march", MarchMethod::new),
                new Entry("truthrl", TruthRl::withRetrieval),
                new Entry("truthrl-no-retrieval", TruthRl::noRetrieval),
                new Entry("court", ReasoningCourt::new),
                new Entry("court-no-judge", ReasoningCourt::withoutJudge),
                new Entry("react", React::new),
                new Entry("react-sc", React::selfConsistency),
                new Entry("react-cot-sc", ReactCotSc::reactFirst),
                new Entry("cot-sc-react", ReactCotSc::cotScFirst),
                new Entry("react-self-refine", ReactSelfRefine::new),
                new Entry("react-mad", ReactJudges::mad),
                new Entry("react-judge", ReactJudges::llmJudge),
                new Entry("cot-judge", CotJudge::new),
                new Entry("mad", MultiAgentDebate::new),
                new Entry("c3po", C3po::new));
    }

    @Override
    public int order() {
        return BUILT_IN;
    }
}
