/**
 * C-3PO's tree-structured rollout and Monte Carlo credit assignment (section 5.1, eq. 1-5), which the authors did
 * not release: {@link dev.veracity.methods.c3po.rollout.Rollout} builds one question's tree (a deterministic first
 * level that forces the three strategies, then K(t) sampled actions per node, each followed by the deterministic
 * transition of Appendix B.2), {@link dev.veracity.methods.c3po.rollout.Credit} gives every node the mean reward of
 * the leaves below it (eq. 5) exactly, and {@link dev.veracity.methods.c3po.rollout.TreeJson} writes the tree and
 * its per-agent training records (section 5.2's node regroup) and the seed trajectories for the supervised warm-up.
 */
package dev.veracity.methods.c3po.rollout;
