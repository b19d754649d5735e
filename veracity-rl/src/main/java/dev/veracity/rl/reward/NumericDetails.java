package dev.veracity.rl.reward;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Declarations of {@link Reward#numericDetails()}: names in order, each with its neutral value. */
final class NumericDetails {

    private NumericDetails() {
    }

    /** These names, in this order, each with the neutral value 0. */
    static Map<String, Double> zeros(String... names) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String n : names) {
            out.put(n, 0.0);
        }
        return Collections.unmodifiableMap(out);
    }
}
