package dev.veracity.sim;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Which faults the simulator injects into completions requests ({@code /v1/models} is never
 * faulted). Immutable.
 *
 * <p>Requests are numbered in arrival order, counting only completions requests that passed
 * validation (a request the server would reject with 400/401 anyway does not use up a fault). Request
 * number {@code i} gets:
 * <ol>
 *   <li>{@code script[i]} while {@code i < script.length}, so tests get exact control
 *       ({@link #script(FaultKind...)}, {@link FaultKind#NONE} allowed); then</li>
 *   <li>a fault drawn at the configured per-kind {@linkplain #withRate rates}, from a hash of
 *       (server seed, i): the same sequence of requests always sees the same faults.</li>
 * </ol>
 */
public final class FaultPlan {

    public static final Duration DEFAULT_HANG = Duration.ofSeconds(60);

    private static final FaultPlan NONE = new FaultPlan(new FaultKind[0], new double[FaultKind.values().length], DEFAULT_HANG);

    private final FaultKind[] script;
    private final double[] rates; // by FaultKind ordinal; NONE's entry stays 0
    private final Duration hangDuration;
    private final boolean anyRate;

    private FaultPlan(FaultKind[] script, double[] rates, Duration hangDuration) {
        this.script = script;
        this.rates = rates;
        this.hangDuration = hangDuration;
        this.anyRate = Arrays.stream(rates).anyMatch(r -> r > 0);
    }

    /** No faults. */
    public static FaultPlan none() {
        return NONE;
    }

    /** The first requests get these faults, in order; later ones none (unless rates are added). */
    public static FaultPlan script(FaultKind... faults) {
        return none().withScript(List.of(faults));
    }

    /** Faults at these per-kind rates (each in [0, 1], summing to at most 1). */
    public static FaultPlan rates(Map<FaultKind, Double> rates) {
        FaultPlan plan = none();
        for (Map.Entry<FaultKind, Double> e : rates.entrySet()) {
            plan = plan.withRate(e.getKey(), e.getValue());
        }
        return plan;
    }

    /**
     * Parses rates written as {@code "rate_limit=0.1,server_error=0.05"} (kind names as in
     * {@link FaultKind}, case-insensitive, {@code -} allowed for {@code _}), e.g. for a command line.
     */
    public static FaultPlan parseRates(String spec) {
        FaultPlan plan = none();
        if (spec == null || spec.isBlank()) {
            return plan;
        }
        for (String part : spec.split(",")) {
            String[] kv = part.split("=", 2);
            if (kv.length != 2) {
                throw new IllegalArgumentException("fault rate '" + part.strip() + "' is not KIND=RATE");
            }
            FaultKind kind = parseKind(kv[0]);
            double rate;
            try {
                rate = Double.parseDouble(kv[1].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("fault rate '" + part.strip() + "': '" + kv[1].strip() + "' is not a number");
            }
            plan = plan.withRate(kind, rate);
        }
        return plan;
    }

    /** A fault kind by name, case-insensitive, {@code -} allowed for {@code _}. */
    public static FaultKind parseKind(String name) {
        String normal = name.strip().toUpperCase(Locale.ROOT).replace('-', '_');
        try {
            return FaultKind.valueOf(normal);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown fault kind '" + name.strip() + "'; expected one of "
                    + Arrays.toString(FaultKind.values()).toLowerCase(Locale.ROOT));
        }
    }

    public FaultPlan withScript(List<FaultKind> faults) {
        FaultKind[] copy = faults.toArray(FaultKind[]::new);
        for (FaultKind f : copy) {
            Objects.requireNonNull(f, "scripted fault");
        }
        return new FaultPlan(copy, rates, hangDuration);
    }

    public FaultPlan withRate(FaultKind kind, double rate) {
        Objects.requireNonNull(kind, "kind");
        if (kind == FaultKind.NONE) {
            throw new IllegalArgumentException("NONE has no rate; it is what is left over");
        }
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("fault rate for " + kind + " must be in [0, 1], got " + rate);
        }
        double[] copy = rates.clone();
        copy[kind.ordinal()] = rate;
        double sum = Arrays.stream(copy).sum();
        if (sum > 1 + 1e-9) {
            throw new IllegalArgumentException("fault rates sum to " + sum + ", more than 1");
        }
        return new FaultPlan(script, copy, hangDuration);
    }

    /** How long a {@link FaultKind#HANG} holds its request; default 60 s. */
    public FaultPlan withHangDuration(Duration hang) {
        Objects.requireNonNull(hang, "hang");
        if (hang.isNegative()) {
            throw new IllegalArgumentException("hang duration must not be negative");
        }
        return new FaultPlan(script, rates, hang);
    }

    public List<FaultKind> script() {
        return List.of(script);
    }

    public double rate(FaultKind kind) {
        return rates[kind.ordinal()];
    }

    /** The non-zero rates. */
    public Map<FaultKind, Double> rates() {
        Map<FaultKind, Double> out = new EnumMap<>(FaultKind.class);
        for (FaultKind k : FaultKind.values()) {
            if (rates[k.ordinal()] > 0) {
                out.put(k, rates[k.ordinal()]);
            }
        }
        return out;
    }

    public Duration hangDuration() {
        return hangDuration;
    }

    /** Whether this plan can ever inject a fault. */
    public boolean isNone() {
        return !anyRate && Arrays.stream(script).allMatch(f -> f == FaultKind.NONE);
    }

    /** The fault for the {@code index}-th (0-based) faultable request. */
    public FaultKind choose(long index, long seed) {
        if (index < script.length) {
            return script[(int) index];
        }
        if (!anyRate) {
            return FaultKind.NONE;
        }
        double u = Mix.unit(Mix.mix(seed ^ 0x6661756c74L, index));
        double cumulative = 0;
        for (FaultKind k : FaultKind.values()) {
            cumulative += rates[k.ordinal()];
            if (u < cumulative) {
                return k;
            }
        }
        return FaultKind.NONE;
    }

    @Override
    public String toString() {
        return "FaultPlan[script=" + Arrays.toString(script) + ", rates=" + rates() + ", hang=" + hangDuration + "]";
    }
}
