package dev.veracity.methods.march;

import dev.veracity.method.AgentPrompt;
import dev.veracity.method.Capability;
import dev.veracity.method.MethodAnswer;
import dev.veracity.method.MethodContext;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.ModelRole;
import dev.veracity.method.QaMethod;
import dev.veracity.method.RolePrompt;
import dev.veracity.method.TrainingRecords;
import dev.veracity.qa.QaItem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * {@code march} as an answering method: the Solver answers (Appendix A.1), the answer is verified (Proposer once,
 * Checker k times), and on a fault the {@link FailurePolicy} applies. Calls per question: 1 + 1 + k (1 + 1 when the
 * Proposer finds no claim), times the attempts under {@code policy=regenerate}. Options: see {@link MarchSettings}
 * ({@code samples}, {@code min-pairs}, {@code match}, {@code policy}, {@code r}, ...).
 *
 * <p>The prediction is the Solver's long-form response (or "I don't know" under abstain). Each question's
 * {@link MarchOutcome} (verification, rewards, training records) goes to the listener given at construction, from
 * which {@link ConsistencyRate} and its training records ({@link dev.veracity.method.AgentRecord}s) are made.
 */
public final class MarchMethod implements QaMethod, TrainingRecords {

    public static final String NAME = "march";

    /**
     * The model ({@link MethodContext#model}) of the calls MARCH does not train: the Proposer and Checker samples
     * 1..k-1 (GUIDE: "the Proposer is not trained", one Checker sample is). Unbound, it is the method's one client;
     * online training ({@code veracity rl rollout --areal}) points it away from the trainer's session, which trains on
     * every call it serves.
     */
    public static final ModelRole UNTRAINED = new ModelRole("march-untrained",
            "the Proposer and Checker samples MARCH does not train (online training binds it), else the LLM");

    /** The declaration {@code eval} and {@code methods} read; the options are {@link MarchSettings#OPTIONS}. */
    public static final MethodSpec SPEC = new MethodSpec(NAME,
            "Solver -> Proposer -> Checker: the answer's claims verified against the documents, blind to the response.",
            "MARCH", "Section 2, prompts of App. A", MarchSettings.OPTIONS).withNeeds(Capability.DOCUMENTS, UNTRAINED);

    public static final String ABSTENTION = "I don't know";

    /**
     * The Solver's prompt (App. A.1), the trajectory MARCH trains with the ZTR reward. The Proposer (it reads a
     * response) and the Checker (it reads the Proposer's questions) cannot be prompted from a question alone.
     */
    static final RolePrompt SOLVER = RolePrompt.of("solver",
            "the Solver: the documents and the query (App. A.1)",
            (item, c) -> List.of(new AgentPrompt("solver", Solver.messages(item.question(), item.documents()))));

    private final Consumer<MarchOutcome> listener;

    public MarchMethod() {
        this(o -> {
        });
    }

    /** @param listener receives every question's outcome; called concurrently, so it must be thread-safe */
    public MarchMethod(Consumer<MarchOutcome> listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /** The run folder's file of MARCH's training records (read by {@code rl export} and {@code rl inspect}). */
    public static final String RECORDS_FILE = "march-records.jsonl";

    @Override
    public String recordsFile() {
        return RECORDS_FILE;
    }

    @Override
    public String recordsDescription() {
        return "MARCH training records (Solver and Checker trajectories with ZTR)";
    }

    /** MARCH handing each question's Solver and Checker trajectories with ZTR ({@link MarchOutcome#trainingRecords}). */
    @Override
    public QaMethod recording(String run, Consumer<List<dev.veracity.method.AgentRecord>> sink) {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(sink, "sink");
        return new MarchMethod(o -> sink.accept(o.trainingRecords(run)));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public MethodSpec spec() {
        return SPEC;
    }

    @Override
    public List<RolePrompt> rolePrompts() {
        return List.of(SOLVER);
    }

    @Override
    public MethodAnswer answer(QaItem item, MethodContext ctx) {
        return run(item, ctx).answer();
    }

    public MarchOutcome run(QaItem item, MethodContext ctx) {
        MarchSettings s = MarchSettings.fromOptions(ctx.options());
        Solver solver = new Solver(s);
        MarchVerifier verifier = new MarchVerifier(s);
        int tries = s.policy() == FailurePolicy.REGENERATE ? 1 + s.regenerations() : 1;
        List<MarchOutcome.Attempt> attempts = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (int a = 0; a < tries; a++) {
            Turn turn = solver.solve(ctx.llm(), ctx.role("solver", a), item.question(), item.documents(), a);
            Verification v = verifier.verify(ctx.llm(), ctx.model(UNTRAINED), ctx.calls(), a, turn.output(),
                    item.documents());
            attempts.add(new MarchOutcome.Attempt(turn, v));
            int attempt = a;
            v.problems().forEach(p -> problems.add("attempt " + attempt + ": " + p));
            if (v.consistent()) {
                break;
            }
        }
        MarchOutcome.Attempt last = attempts.getLast();
        boolean passed = last.verification().consistent();
        String prediction = !passed && s.policy() == FailurePolicy.ABSTAIN ? ABSTENTION : last.solver().output().strip();
        MethodAnswer unsignalled = new MethodAnswer(prediction, List.of(), problems);
        MarchOutcome scored = new MarchOutcome(item.id(), item.question(), attempts, unsignalled, s);
        Map<String, Double> signals = new LinkedHashMap<>();
        signals.put("consistent", scored.consistent() ? 1.0 : 0.0);
        signals.put("ztr", scored.ztr());
        signals.put("error_rate_reward", scored.errorRateReward());
        signals.put("claims", (double) last.verification().claims().size());
        // counted apart: a response whose claims could not be read was not verified (never consistent)
        signals.put("unparseable", last.verification().status() == Verification.Status.UNPARSEABLE ? 1.0 : 0.0);
        signals.put("attempts", (double) attempts.size());
        MarchOutcome outcome = new MarchOutcome(item.id(), item.question(), attempts,
                new MethodAnswer(prediction, List.of(), problems, signals)
                        .withDetail(MarchDetail.KEY, MarchDetail.of(last.verification(), attempts.size())), s);
        listener.accept(outcome);
        return outcome;
    }
}
