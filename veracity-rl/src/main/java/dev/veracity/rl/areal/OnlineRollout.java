package dev.veracity.rl.areal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.eval.data.Datasets;
import dev.veracity.llm.Completion;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.method.AgentRecord;
import dev.veracity.method.MethodContext;
import dev.veracity.methods.c3po.Agent;
import dev.veracity.methods.c3po.rollout.Node;
import dev.veracity.methods.c3po.rollout.Rollout;
import dev.veracity.methods.c3po.rollout.RolloutSettings;
import dev.veracity.methods.c3po.rollout.Tree;
import dev.veracity.methods.c3po.rollout.TreeJson;
import dev.veracity.methods.march.MarchMethod;
import dev.veracity.methods.march.MarchOutcome;
import dev.veracity.methods.march.Turn;
import dev.veracity.qa.QaItem;
import dev.veracity.rl.jsonl.JsonlRows;
import dev.veracity.rl.reward.Reward;
import dev.veracity.rl.rollout.C3poRolloutRun;
import dev.veracity.rl.rollout.QuestionRuns;
import dev.veracity.rl.rollout.RolloutFiles;
import dev.veracity.trace.CallContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code veracity rl rollout --areal URL}: online training with AReaL, the policy staying in the trainer. Each
 * question is one AReaL session: the method's trained calls go to the session's chat completions (so AReaL records
 * their tokens and logprobs itself), then every trained interaction gets its reward by its id, and the session is
 * ended, which hands it to AReaL's trainer. What is rewarded:
 * <ul>
 *   <li>{@code march}: per attempt, the Solver's interaction and Checker sample 0's, each with the attempt's ZTR (the
 *       dual trajectories of {@link MarchOutcome#trainingRecords}). The Proposer and Checker samples 1..k-1 are not
 *       trained (GUIDE section 3), so they do not go through the session but to the method's other backend
 *       ({@link MarchMethod#UNTRAINED}; AReaL would train on every interaction of a session);</li>
 *   <li>{@code c3po}: every proxy call (router, filter, Decision Maker) is an interaction of the session; each sample
 *       gets its node's eq. 5 credit (identical samples merged into one node each get it). The LLM (roadmap,
 *       answer) is not the policy and runs on the other backend. Samples of nodes the environment ended (a failed
 *       search) are not rewarded, as they get no record.</li>
 * </ul>
 * Interactions the session holds but that got no reward are counted ({@code unrewarded}; AReaL gives them its
 * default). Output folder (resumable through {@link RolloutFiles}): {@code records.jsonl} (the agent records),
 * {@code rewards.jsonl} (one line per reward set: {@code question_id, session_id, interaction_id, role, node_id,
 * reward}), and {@code sessions.jsonl}, the commit mark, written after end_session: {@code id, session_id, method,
 * interactions} (AReaL's count), {@code rewarded, unrewarded}. A question that fails before its session ended leaves
 * the session open, so AReaL drops it unused as stale instead of training on half a rollout; the rerun redoes it.
 */
public final class OnlineRollout {

    public static final String SESSIONS = "sessions.jsonl";
    public static final String RECORDS = "records.jsonl";
    public static final String REWARDS = "rewards.jsonl";

    /** The methods that train online. */
    public enum Method {
        MARCH, C3PO;

        public static Method of(String name) {
            return switch (name.strip().toLowerCase(Locale.ROOT)) {
                case "march" -> MARCH;
                case "c3po", "c-3po" -> C3PO;
                default -> throw new IllegalArgumentException("--method must be march or c3po, was '" + name + "'");
            };
        }

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * What to run.
     *
     * @param method          march or c3po
     * @param dataset         the dataset's name
     * @param data            its file
     * @param limit           the first questions (0 = all)
     * @param out             the output folder (resumed)
     * @param questionsAtOnce sessions open at once
     * @param run             the run id in the records
     * @param options         the method's options (MARCH's settings)
     * @param c3po            C-3PO's rollout settings (null for march)
     * @param leafReward      C-3PO's leaf reward (null for march)
     */
    public record Spec(Method method, String dataset, Path data, int limit, Path out, int questionsAtOnce, String run,
                       Map<String, String> options, RolloutSettings c3po, Reward leafReward) {
        public Spec {
            Objects.requireNonNull(method, "method");
            options = options == null ? Map.of() : Map.copyOf(options);
            if (limit < 0 || questionsAtOnce < 1) {
                throw new IllegalArgumentException("--limit must be >= 0 and --questions-at-once >= 1");
            }
            if (method == Method.C3PO && (c3po == null || leafReward == null)) {
                throw new IllegalArgumentException("c3po needs its rollout settings and leaf reward");
            }
        }
    }

    /** Opens the policy's client for one session: the gateway's chat completions, the session key as bearer. */
    @FunctionalInterface
    public interface PolicyClients {
        LlmClient open(ArealClient.Session session);
    }

    /**
     * What a run did.
     *
     * @param questions the questions considered
     * @param skipped   those already in the folder
     * @param written   sessions ended and written by this run
     * @param failures  one line per failed question (left for a rerun)
     * @param summary   rollout-summary.json
     */
    public record Outcome(int questions, int skipped, int written, List<String> failures, ObjectNode summary) {
    }

    /** One reward to set: an interaction of the session, the node it belongs to, its reward. */
    record Rewarded(String interactionId, String role, String nodeId, double reward) {
    }

    /** One question's rollout: its records and the rewards of its interactions. */
    record Question(List<ObjectNode> records, List<Rewarded> rewards) {
    }

    private OnlineRollout() {
    }

    /**
     * Runs the rollout.
     *
     * @param base     the other backend ({@code llm()}: C-3PO's LLM, MARCH's untrained calls), the retriever
     * @param progress one line per finished question
     */
    public static Outcome run(Spec spec, ArealClient areal, PolicyClients policy, MethodContext base,
                              Consumer<String> progress) {
        List<QaItem> items;
        try (Stream<QaItem> s = Datasets.stream(spec.dataset(), spec.data())) {
            items = (spec.limit() > 0 ? s.limit(spec.limit()) : s).toList();
        }
        Rollout c3po = spec.method() == Method.C3PO
                ? new Rollout(spec.c3po(), C3poRolloutRun.leafReward(spec.leafReward())) : null;
        int skipped;
        int[] written = {0};
        List<String> failures;
        try (RolloutFiles files = RolloutFiles.open(spec.out(), SESSIONS, List.of(RECORDS, REWARDS))) {
            Set<String> done = files.done();
            List<QaItem> todo = items.stream().filter(i -> !done.contains(i.id())).toList();
            skipped = items.size() - todo.size();
            failures = QuestionRuns.run(todo, spec.questionsAtOnce(), item -> {
                ArealClient.Session session = areal.startSession(item.id());
                Question q;
                try (LlmClient client = policy.open(session)) {
                    q = spec.method() == Method.MARCH ? march(spec, item, client, base) : c3po(spec, c3po, item, client, base);
                } catch (RuntimeException e) {
                    throw new IllegalStateException(e.getMessage() + " (session " + session.id() + " left open: AReaL"
                            + " drops it unused once stale)", e);
                }
                for (Rewarded r : q.rewards()) {
                    areal.setReward(session, r.interactionId(), r.reward());
                }
                int interactions = areal.endSession(session);
                long rewarded = q.rewards().stream().map(Rewarded::interactionId).distinct().count();
                List<ObjectNode> rewardRows = new ArrayList<>();
                for (Rewarded r : q.rewards()) {
                    rewardRows.add(JsonlRows.JSON.createObjectNode().put("question_id", item.id())
                            .put("session_id", session.id()).put("interaction_id", r.interactionId())
                            .put("role", r.role()).put("node_id", r.nodeId()).put("reward", r.reward()));
                }
                ObjectNode line = JsonlRows.JSON.createObjectNode().put("id", item.id()).put("session_id", session.id())
                        .put("method", spec.method().wireName()).put("interactions", interactions)
                        .put("rewarded", rewarded).put("unrewarded", Math.max(0, interactions - rewarded));
                files.write(line, List.of(q.records(), rewardRows));
                synchronized (written) {
                    written[0]++;
                }
                return String.format(Locale.ROOT, "%s: session %s, %d interactions, %d rewarded (%s)", item.id(),
                        session.id(), interactions, rewarded, q.rewards().stream().map(r -> r.role() + " "
                                + fmt(r.reward())).toList());
            }, progress);
        }
        ObjectNode summary = summarize(spec.out());
        try {
            Files.writeString(spec.out().resolve("rollout-summary.json"),
                    JsonlRows.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(summary));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write rollout-summary.json: " + e.getMessage(), e);
        }
        return new Outcome(items.size(), skipped, written[0], failures, summary);
    }

    /** MARCH: the Solver and Checker sample 0 through the session, each rewarded with its attempt's ZTR. */
    static Question march(Spec spec, QaItem item, LlmClient policy, MethodContext base) {
        if (item.documents().isEmpty()) {
            throw new IllegalArgumentException("MARCH checks answers against the question's documents and this question"
                    + " has none");
        }
        MethodContext ctx = new MethodContext(policy, CallContext.of(spec.run(), item.id(), MarchMethod.NAME),
                spec.dataset(), false, spec.options(), null, null, null,
                Map.of(MarchMethod.UNTRAINED, base.llm()));
        MarchOutcome o = new MarchMethod().run(item, ctx);
        List<ObjectNode> records = o.trainingRecords(spec.run()).stream().map(AgentRecord::toJson).toList();
        List<Rewarded> rewards = new ArrayList<>();
        for (int i = 0; i < o.attempts().size(); i++) {
            MarchOutcome.Attempt a = o.attempts().get(i);
            double ztr = o.settings().ztr().of(a.verification());
            rewards.add(new Rewarded(interaction(a.solver()), "solver", "solver-" + i, ztr));
            if (!a.verification().checkers().isEmpty()) {
                rewards.add(new Rewarded(interaction(a.verification().checkers().getFirst().turn()), "checker",
                        "checker-" + i + "-0", ztr));
            }
        }
        return new Question(records, rewards);
    }

    /** C-3PO: the proxy through the session, each sample rewarded with its node's credit. */
    static Question c3po(Spec spec, Rollout rollout, QaItem item, LlmClient policy, MethodContext base) {
        if (item.goldForms().isEmpty()) {
            throw new IllegalArgumentException("no gold answer to score the leaves with");
        }
        MethodContext ctx = new MethodContext(base.llm(), CallContext.of(spec.run(), item.id(), "c3po-rollout"),
                spec.dataset(), false, Map.of(), base.retriever(), null, null, Map.of(Agent.PROXY, policy));
        Tree t = rollout.run(item, ctx);
        List<Rewarded> rewards = new ArrayList<>();
        for (Node n : t.nodes()) {
            if (TreeJson.trained(n)) {
                for (Completion c : n.samples()) {
                    rewards.add(new Rewarded(interaction(c), n.agent().role(), n.id(), n.credit()));
                }
            }
        }
        return new Question(TreeJson.records(t, spec.run()), rewards);
    }

    private static String interaction(Turn t) {
        return interaction(t.completion());
    }

    /** The interaction id of a call made through the session: its answer's id. */
    private static String interaction(Completion c) {
        if (c == null || c.responseId() == null || c.responseId().isBlank()) {
            throw new IllegalStateException("a call through the AReaL session came back without a response id, the"
                    + " interaction id its reward needs");
        }
        return c.responseId();
    }

    /** Counts over the whole folder: questions, interactions, rewards per role. */
    static ObjectNode summarize(Path dir) {
        ObjectNode s = JsonlRows.JSON.createObjectNode();
        long[] totals = new long[3];
        Path sessions = dir.resolve(SESSIONS);
        if (Files.exists(sessions)) {
            JsonlRows.forEach(sessions, (n, row) -> {
                totals[0]++;
                totals[1] += row.path("interactions").asLong();
                totals[2] += row.path("unrewarded").asLong();
            });
        }
        s.put("questions", totals[0]);
        s.put("interactions", totals[1]);
        s.put("unrewarded_interactions", totals[2]);
        Map<String, double[]> byRole = new TreeMap<>();
        Path rewards = dir.resolve(REWARDS);
        if (Files.exists(rewards)) {
            JsonlRows.forEach(rewards, (n, row) -> {
                double[] acc = byRole.computeIfAbsent(row.path("role").asText(), k -> new double[2]);
                acc[0] += row.path("reward").asDouble();
                acc[1]++;
            });
        }
        ObjectNode roles = s.putObject("rewards");
        byRole.forEach((role, acc) -> roles.putObject(role).put("count", (long) acc[1]).put("mean", acc[0] / acc[1]));
        return s;
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.3f", d);
    }
}
