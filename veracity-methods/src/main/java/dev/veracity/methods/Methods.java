package dev.veracity.methods;

import dev.veracity.method.MethodSpec;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.baseline.ChainOfThought;
import dev.veracity.methods.baseline.ChainOfThoughtSelfConsistency;
import dev.veracity.methods.baseline.NoRag;
import dev.veracity.methods.baseline.StandardRag;
import dev.veracity.methods.court.CotJudge;
import dev.veracity.methods.court.MultiAgentDebate;
import dev.veracity.methods.court.React;
import dev.veracity.methods.court.ReactCotSc;
import dev.veracity.methods.court.ReactJudges;
import dev.veracity.methods.court.ReactSelfRefine;
import dev.veracity.methods.court.ReasoningCourt;
import dev.veracity.methods.madam.MadamRag;
import dev.veracity.methods.march.MarchMethod;
import dev.veracity.methods.madam.baseline.AstuteRag;
import dev.veracity.methods.madam.baseline.SelfReflection;
import dev.veracity.methods.madam.baseline.SpeculativeRag;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The methods by command-line name. Each method declares itself ({@link QaMethod#spec()}: description, paper
 * section, typed options); this registry only lists them, and every front end ({@code eval}, {@code methods})
 * reads the declarations from here.
 */
public final class Methods {

    private static final Map<String, Supplier<QaMethod>> ALL = new LinkedHashMap<>();

    static {
        ALL.put("no-rag", NoRag::new);
        ALL.put("standard-rag", StandardRag::new);
        ALL.put("cot", ChainOfThought::new);
        ALL.put("cot-sc", ChainOfThoughtSelfConsistency::new);
        ALL.put("madam-rag", MadamRag::new);
        ALL.put("self-reflection", SelfReflection::new);
        ALL.put("astute-rag", AstuteRag::new);
        ALL.put("speculative-rag", SpeculativeRag::new);
        ALL.put("march", MarchMethod::new);
        ALL.put("truthrl", dev.veracity.methods.truthrl.TruthRl::withRetrieval);
        ALL.put("truthrl-no-retrieval", dev.veracity.methods.truthrl.TruthRl::noRetrieval);
        ALL.put("court", ReasoningCourt::new);
        ALL.put("court-no-judge", ReasoningCourt::withoutJudge);
        ALL.put("react", React::new);
        ALL.put("react-sc", React::selfConsistency);
        ALL.put("react-cot-sc", ReactCotSc::reactFirst);
        ALL.put("cot-sc-react", ReactCotSc::cotScFirst);
        ALL.put("react-self-refine", ReactSelfRefine::new);
        ALL.put("react-mad", ReactJudges::mad);
        ALL.put("react-judge", ReactJudges::llmJudge);
        ALL.put("cot-judge", CotJudge::new);
        ALL.put("mad", MultiAgentDebate::new);
        ALL.put("c3po", dev.veracity.methods.c3po.C3po::new);
    }

    private Methods() {
    }

    public static Set<String> names() {
        return ALL.keySet();
    }

    /** Every method's declaration, in listing order. */
    public static List<MethodSpec> specs() {
        return ALL.values().stream().map(s -> s.get().spec()).toList();
    }

    /** The declaration of the method of that name; an unknown name is an error that lists the known ones. */
    public static MethodSpec spec(String name) {
        return byName(name).spec();
    }

    /** The method of that name; an unknown name is an error that lists the known ones. */
    public static QaMethod byName(String name) {
        if (name != null && name.contains("+")) {
            // METHOD+march[+abstain]: one pipeline over the method interface (dev.veracity.methods.compose)
            return dev.veracity.methods.compose.Composition.parse(name, Methods::byName);
        }
        Supplier<QaMethod> s = ALL.get(name);
        if (s == null) {
            throw new IllegalArgumentException("unknown method '" + name + "'; known: " + String.join(", ", ALL.keySet())
                    + " (and METHOD+march[+abstain] to verify any of them)");
        }
        return s.get();
    }
}
