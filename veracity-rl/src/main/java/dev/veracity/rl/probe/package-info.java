/**
 * TruthRL's knowledge-boundary probing (section 3.1): many samples per question from the model's own knowledge; a
 * question none of whose samples is correct is out of its knowledge (OOK). The probe's per-question counts feed the
 * knowledge-enhanced rewards (label {@code ook}) and the R-Tuning / RFT baselines' data.
 */
package dev.veracity.rl.probe;
