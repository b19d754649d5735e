package dev.veracity.methods.truthrl;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.veracity.method.DetailKey;
import dev.veracity.qa.Abstention;
import java.util.Locale;
import java.util.Objects;

/**
 * What TruthRL's answer committed to, as a run keeps it (the result line's {@code details.truthrl}): the boxed answer
 * and its class in TruthRL's ternary reward ({@code answer}, {@code abstain}, {@code invalid_premise}, or
 * {@code no_box}, which its evaluation counts as a hallucination). The report's question page reads it.
 *
 * @param box   the text inside {@code \boxed{}} ("" when there is none)
 * @param klass the abstention class
 */
@JsonPropertyOrder({"box", "class"})
public record TruthRlDetail(String box, @com.fasterxml.jackson.annotation.JsonProperty("class") String klass) {

    /** The detail's key: {@code details.truthrl} in a result line. */
    public static final DetailKey<TruthRlDetail> KEY = DetailKey.of("truthrl", TruthRlDetail.class);

    public TruthRlDetail {
        box = Objects.requireNonNullElse(box, "");
        klass = Objects.requireNonNullElse(klass, "");
    }

    /** The detail of a reading. */
    static TruthRlDetail of(Abstention.Reading r) {
        return new TruthRlDetail(r.answer(), r.kind() == Abstention.Kind.NO_ANSWER ? "no_box"
                : r.kind().name().toLowerCase(Locale.ROOT));
    }
}
