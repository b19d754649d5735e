package dev.veracity.cli;

import dev.veracity.llm.client.LlmClient;
import dev.veracity.methods.march.AppendixC;
import dev.veracity.methods.march.ClaimCheck;
import dev.veracity.methods.march.ErrorRateReward;
import dev.veracity.methods.march.MarchSettings;
import dev.veracity.methods.march.MarchVerifier;
import dev.veracity.methods.march.Verification;
import dev.veracity.sim.Rule;
import dev.veracity.trace.CallContext;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * MARCH's case study (Appendix C.1, Guadeloupe parkinsonism) through {@code verify}: the paper's Solver response is
 * checked against the documents by the Proposer and three blind Checker samples, and the claim table is printed.
 * {@link #simRules()} makes the simulator answer as the paper's model does: the paper's Solver and Proposer texts,
 * and Checker answers read from the documents in each Checker prompt ({@link AppendixC#respond(String)}).
 */
public final class MarchDemo {

    private MarchDemo() {
    }

    /** Simulator rules: one per agent prompt, each answering through {@link AppendixC#respond(String)}. */
    public static List<Rule> simRules() {
        return List.of(
                Rule.of("You are a data validation expert", m -> AppendixC.respond(m.prompt())),
                Rule.of("You are a data annotation expert", m -> AppendixC.respond(m.prompt())),
                Rule.of("You must respond based strictly", m -> AppendixC.respond(m.prompt())));
    }

    /** Verifies the Appendix C response with 3 Checker samples and prints the claims, the rewards and the calls. */
    public static Verification run(PrintStream out, LlmClient client, String runId) {
        MarchSettings settings = MarchSettings.defaults();
        long before = client.counters().calls();
        Verification v = new MarchVerifier(settings).verify(client, CallContext.of(runId, "appendix-c", "march"),
                AppendixC.SOLVER_RESPONSE, AppendixC.DOCUMENTS);
        long calls = client.counters().calls() - before;
        out.println("MARCH verify, Appendix C case: " + AppendixC.QUESTION);
        out.printf(Locale.ROOT, "%-3s %-100s %-7s %-16s %-4s %s%n", "#", "question (Proposer)", "claimed", "Checker x3",
                "vote", "verdict");
        for (ClaimCheck c : v.claims()) {
            List<String> answers = new ArrayList<>();
            c.answers().forEach(a -> answers.add(a == null ? "-" : a.answer()));
            out.printf(Locale.ROOT, "%-3d %-100s %-7s %-16s %+-4d %s%n", c.claim().number(),
                    VerifyCommand.cut(c.claim().question(), 100), c.claim().answer(), String.join(" / ", answers), c.vote(),
                    c.verdict());
        }
        out.printf(Locale.ROOT, "%d claims, %d confirmed, %d faults; zero-tolerance reward %.0f, error-rate reward %.2f%n",
                v.claims().size(), v.claims().size() - v.faults(), v.faults(), settings.ztr().of(v),
                ErrorRateReward.authors().of(v));
        out.printf(Locale.ROOT, "%d calls: 1 Proposer + %d Checker samples; the Checker saw the documents and questions only.%n",
                calls, v.checkers().size());
        return v;
    }
}
