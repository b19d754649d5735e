package dev.veracity.methods.c3po.rollout;

import dev.veracity.methods.c3po.FewShot;
import dev.veracity.methods.c3po.Limits;
import dev.veracity.methods.c3po.Sampling;
import dev.veracity.qa.QaItem;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a rollout samples and where it stops.
 *
 * <ul>
 *   <li>branching K(t) (eq. 2): 2 actions for a node at depth t <= 4, 1 deeper; t is the depth of the sampled
 *       action's node (the authors' code samples 2 until its fourth expansion round, which creates depth 5, then 1);
 *       identical samples are one child, as the authors deduplicate;</li>
 *   <li>the proxy at temperature 0.6, the roadmap at the authors' 0.3, the answer greedy with one sample;</li>
 *   <li>max depth: {@link Preset#PAPER} 13 (Table 7), {@link Preset#AUTHORS} 13 and MuSiQue max(2 x hops + 5, 13)
 *       (their sampling script {@code instruct_sampling_scripts/offline_base_instruct.sh} passes {@code --max_depth
 *       13}, 9 is only {@code arguments.py}'s default; {@code search.py} raises MuSiQue's); filter ids out of range
 *       refuse the output (their data collection);</li>
 *   <li>few-shot examples ({@link FewShot}): by default the roadmap and the answer carry the authors' randomly drawn
 *       examples, and the proxy's prompts too when no proxy backend is configured (C-3PO-ICL collecting seed data,
 *       as their sampling with Qwen2-72B-Instruct as the proxy); seed 42;</li>
 *   <li>{@code tree=false}: the ablation "w/o tree rollout" (section 6.4): the router is sampled, not forced, and
 *       every node has one action, so one trajectory per question whose every node gets the final reward;</li>
 *   <li>{@code maxCalls}: model calls per tree; a tree that would need more records the unexpanded branches as
 *       failures ({@code call budget}) and says it was truncated. The presets' trees need at most 80.</li>
 * </ul>
 */
public record RolloutSettings(Preset preset, boolean tree, int wideDepth, int width, Sampling proxy, Sampling roadmap,
                              Sampling answer, int maxDocuments, int pageSize, int maxCalls, FewShot fewShot) {

    /** A named set of depth rules. */
    public enum Preset {
        /** The paper's RL phase: maximal depth 13 (Table 7). */
        PAPER,
        /** The authors' released sampling script: max depth 13, MuSiQue max(2 x hops + 5, 13). */
        AUTHORS;

        public static Preset of(String name) {
            return switch (name) {
                case "paper" -> PAPER;
                case "authors" -> AUTHORS;
                default -> throw new IllegalArgumentException("unknown rollout preset '" + name + "'; one of paper, authors");
            };
        }
    }

    private static final Pattern MUSIQUE_HOPS = Pattern.compile("^(\\d)hop");
    /** Table 7's maximal depth, and the {@code --max_depth 13} of the authors' sampling script. */
    static final int MAX_DEPTH = 13;

    public RolloutSettings {
        if (width < 1 || wideDepth < 0 || maxCalls < 1 || fewShot == null) {
            throw new IllegalArgumentException("width >= 1, wide depth >= 0, max calls >= 1 and a few-shot setting");
        }
    }

    /** A preset's settings: K(t) = 2 for t <= 4 else 1, temperature 0.6, at most 256 calls per tree, few-shot auto. */
    public static RolloutSettings of(Preset preset) {
        return new RolloutSettings(preset, true, 4, 2, Sampling.PROXY_ROLLOUT, Sampling.ROADMAP, Sampling.ANSWER, 10,
                10, 256, FewShot.AUTO);
    }

    /** This preset without the tree: one sampled trajectory per question (section 6.4's ablation). */
    public RolloutSettings singleTrajectory() {
        return new RolloutSettings(preset, false, wideDepth, width, proxy, roadmap, answer, maxDocuments, pageSize, maxCalls,
                fewShot);
    }

    public RolloutSettings withMaxCalls(int calls) {
        return new RolloutSettings(preset, tree, wideDepth, width, proxy, roadmap, answer, maxDocuments, pageSize, calls,
                fewShot);
    }

    public RolloutSettings withProxy(Sampling s) {
        return new RolloutSettings(preset, tree, wideDepth, width, s, roadmap, answer, maxDocuments, pageSize, maxCalls,
                fewShot);
    }

    public RolloutSettings withFewShot(FewShot f) {
        return new RolloutSettings(preset, tree, wideDepth, width, proxy, roadmap, answer, maxDocuments, pageSize, maxCalls,
                f);
    }

    /** K(t): the number of actions sampled for a node at depth t. */
    public int branching(int depth) {
        return tree && depth <= wideDepth ? width : 1;
    }

    /** The limits for this question: the preset's max depth (MuSiQue's by its hop count under the authors' rule). */
    public Limits limits(QaItem item, String dataset) {
        int depth = MAX_DEPTH;
        if (preset == Preset.AUTHORS && dataset != null && dataset.startsWith("musique")) {
            Matcher m = MUSIQUE_HOPS.matcher(item.id());
            if (m.find()) {
                depth = Math.max(2 * Integer.parseInt(m.group(1)) + 5, MAX_DEPTH);
            }
        }
        return new Limits(depth, maxDocuments, pageSize);
    }
}
