package dev.veracity.rl.probe;

import java.util.List;

/**
 * One question probed.
 *
 * @param id            the question's id
 * @param question      its text
 * @param gold          its gold answers
 * @param samples       samples read
 * @param correct       samples judged correct
 * @param abstained     samples that abstained
 * @param noAnswer      samples without a boxed answer
 * @param unjudged      samples whose judge verdict could not be read (neither correct nor wrong)
 * @param seeds         the seeds of the question's requests, in order
 * @param kept          responses kept for the baselines' data, at most {@link ProbeSettings#keep()} per outcome
 */
public record ProbeResult(String id, String question, List<String> gold, int samples, int correct, int abstained,
                          int noAnswer, int unjudged, List<Long> seeds, List<Kept> kept) {

    /** A response kept: its global sample index, outcome (correct, abstain, wrong) and text. */
    public record Kept(int sample, String outcome, String response) {
    }

    /** Out of the model's knowledge: no sample was correct (the paper's rule). */
    public boolean ook() {
        return correct == 0;
    }
}
