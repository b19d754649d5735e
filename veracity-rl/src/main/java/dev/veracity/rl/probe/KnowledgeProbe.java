package dev.veracity.rl.probe;

import dev.veracity.eval.judge.Judge;
import dev.veracity.eval.judge.OrderedJudge;
import dev.veracity.eval.metrics.TruthRlOrder;
import dev.veracity.llm.LlmRequest;
import dev.veracity.llm.LlmResponse;
import dev.veracity.llm.client.LlmClient;
import dev.veracity.methods.truthrl.TruthRlPrompts;
import dev.veracity.qa.Abstention;
import dev.veracity.qa.BoxedAnswer;
import dev.veracity.qa.QaItem;
import dev.veracity.trace.CallContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Samples one question {@link ProbeSettings#samples()} times with TruthRL's prompt and counts the correct samples.
 * Request k of a question asks samples k x perCall onwards ({@code firstSampleIndex}), with seed + k, so the response
 * cache keys every sample by its index: a killed probe asked again re-reads what it had and asks only the rest.
 *
 * <p>A sample is graded as the authors' evaluation grades it, which is how they found the out-of-knowledge questions
 * (their {@code find_OOK_questions.py} reads {@code evaluate.py}'s judged scores): {@link TruthRlOrder} in its
 * evaluation order, no box, no answer; a boxed abstention, an abstention; then gold by gold exact match, a
 * false-premise call against a valid gold, and the judge, which decides what exact match does not (the paper judges;
 * exact match alone counts right answers in other words as wrong and so inflates the out-of-knowledge set). A sample
 * whose judge verdict cannot be read is {@code unjudged}.
 */
public final class KnowledgeProbe {

    private final LlmClient client;
    private final ProbeSettings settings;
    private final Judge judge;

    /** @param judge the LLM judge for what exact match does not settle, or null for exact match only */
    public KnowledgeProbe(LlmClient client, ProbeSettings settings, Judge judge) {
        this.client = client;
        this.settings = settings;
        this.judge = judge;
    }

    public ProbeResult probe(QaItem item, String runId) {
        CallContext ctx = CallContext.of(runId, item.id(), "truthrl-probe");
        String queryTime = TruthRlPrompts.queryTime(item, settings.queryTime());
        String prompt = TruthRlPrompts.prompt(item, settings.retrieval(), queryTime);
        List<String> gold = item.goldForms();
        int correct = 0;
        int abstained = 0;
        int noAnswer = 0;
        int unjudged = 0;
        int read = 0;
        List<Long> seeds = new ArrayList<>();
        List<ProbeResult.Kept> kept = new ArrayList<>();
        java.util.Map<String, Integer> keptBy = new java.util.HashMap<>();
        for (int k = 0; k < settings.requestsPerQuestion(); k++) {
            int first = k * settings.perCall();
            int n = Math.min(settings.perCall(), settings.samples() - first);
            long seed = settings.seed() + k;
            seeds.add(seed);
            LlmResponse r = client.call(ctx.role("prober").step(k), LlmRequest.user(prompt).n(n).firstSampleIndex(first)
                    .temperature(settings.temperature()).topP(settings.topP()).maxTokens(settings.maxTokens()).seed(seed)
                    .build());
            for (String sample : r.texts()) {
                int index = read; // the sample's global index (request k asks from k x perCall)
                read++;
                OrderedJudge asked = judge == null ? null : new OrderedJudge(judge, item.question(), null, ctx.step(k));
                TruthRlOrder.Graded graded = TruthRlOrder.grade(Abstention.ofBoxed(sample, BoxedAnswer.DEFAULT), gold,
                        TruthRlOrder.Order.EVALUATION, asked);
                String outcome = switch (graded.kind()) {
                    case NO_ANSWER -> "no_answer";
                    case ABSTAIN -> "abstain";
                    case CORRECT -> "correct";
                    case WRONG -> "wrong";
                    case UNJUDGED -> "unjudged";
                };
                switch (graded.kind()) {
                    case NO_ANSWER -> noAnswer++;
                    case ABSTAIN -> abstained++;
                    case CORRECT -> correct++;
                    case UNJUDGED -> unjudged++;
                    case WRONG -> { }
                }
                // a wrong answer includes a false-premise call on a valid question; no answer and unjudged are not kept
                if ((outcome.equals("correct") || outcome.equals("abstain") || outcome.equals("wrong"))
                        && keptBy.merge(outcome, 1, Integer::sum) <= settings.keep()) {
                    kept.add(new ProbeResult.Kept(index, outcome, sample));
                }
            }
        }
        return new ProbeResult(item.id(), item.question(), gold, read, correct, abstained, noAnswer, unjudged, seeds,
                kept);
    }
}
