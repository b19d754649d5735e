package dev.veracity.examples.citecheck;

import dev.veracity.plugin.MethodProvider;
import dev.veracity.rl.reward.RewardProvider;
import dev.veracity.rl.reward.Rewards;
import java.util.List;

/**
 * What this plug-in contributes: the cite-check method and its reward. Veracity finds it through the two
 * {@code META-INF/services} files beside it, on the class path or in a {@code --plugins DIR} jar.
 */
public final class CiteCheckPlugin implements MethodProvider, RewardProvider {

    @Override
    public List<Entry> methods() {
        return List.of(new Entry(CiteCheck.NAME, CiteCheck::new));
    }

    @Override
    public List<Rewards.Spec> rewards() {
        return List.of(new Rewards.Spec(CiteCheck.NAME, "cite-check: +1 a correct answer citing a passage that states it,"
                + " 0 \"unknown\", -1 otherwise", false, settings -> new CiteCheckReward()));
    }
}
