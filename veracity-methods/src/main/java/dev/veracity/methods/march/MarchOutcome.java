package dev.veracity.methods.march;

import dev.veracity.llm.ChatMessage;
import dev.veracity.method.AgentRecord;

import dev.veracity.method.MethodAnswer;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything {@link MarchMethod} did for one question: every attempt (Solver turn and its verification), the answer
 * returned, and the rewards.
 */
public record MarchOutcome(String questionId, String question, List<Attempt> attempts, MethodAnswer answer,
                           MarchSettings settings) {

    public MarchOutcome {
        attempts = List.copyOf(attempts);
    }

    /** One Solver sample and its check. */
    public record Attempt(Turn solver, Verification verification) {
    }

    /** The attempt whose response was returned (or withheld under abstain): the last. */
    public Attempt last() {
        return attempts.getLast();
    }

    /** The final attempt passed verification (see {@link ConsistencyRate}). */
    public boolean consistent() {
        return last().verification().consistent();
    }

    public double ztr() {
        return settings.ztr().of(last().verification());
    }

    public double errorRateReward() {
        return settings.errorRateReward().of(last().verification());
    }

    /**
     * The trajectories trained (equation 8), in the one agent-record schema: per attempt, the Solver's response and
     * one Checker sample (sample 0, as the authors' code trains), each with its attempt's ZTR ("both trajectories
     * derive their terminal reward from the same evidentiary identity match"); the Proposer is not trained. The
     * Checker's node follows the Solver's (it checks that response's claims, blind to the response itself). Each
     * record keeps its call's token ids and logprobs where the server returned them.
     */
    public List<AgentRecord> trainingRecords(String run) {
        List<AgentRecord> out = new ArrayList<>();
        ZeroToleranceReward ztr = settings.ztr();
        for (int i = 0; i < attempts.size(); i++) {
            Attempt a = attempts.get(i);
            double reward = ztr.of(a.verification());
            String solver = "solver-" + i;
            out.add(AgentRecord.of(run, questionId, MarchMethod.NAME, "solver", solver, null,
                    List.of(ChatMessage.user(a.solver().prompt())), a.solver().output(), reward)
                    .withTokens(a.solver().completion()));
            if (!a.verification().checkers().isEmpty()) {
                Turn c = a.verification().checkers().getFirst().turn();
                out.add(AgentRecord.of(run, questionId, MarchMethod.NAME, "checker", "checker-" + i + "-0", solver,
                        List.of(ChatMessage.user(c.prompt())), c.output(), reward).withTokens(c.completion()));
            }
        }
        return out;
    }
}
