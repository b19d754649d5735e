package dev.veracity.cli;

import dev.veracity.eval.report.TextTable;
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
        int width = Terminal.columns();
        out.print(VerifyCommand.claimTable(v.claims(), "question (Proposer)", "Checker x" + settings.samples())
                .render(width).text());
        out.print(TextTable.wrap(String.format(Locale.ROOT, "%d claims, %d confirmed, %d faults; zero-tolerance reward"
                + " %.0f, error-rate reward %.2f", v.claims().size(), v.claims().size() - v.faults(), v.faults(),
                settings.ztr().of(v), ErrorRateReward.authors().of(v)), width, "", "  "));
        out.print(TextTable.wrap(String.format(Locale.ROOT, "%d calls: 1 Proposer + %d Checker samples; the Checker saw"
                + " the documents and questions only.", calls, v.checkers().size()), width, "", "  "));
        return v;
    }
}
