package dev.veracity.methods;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import dev.veracity.methods.madam.MadamSettings;
import dev.veracity.methods.march.MarchSettings;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MethodsRegistryTest {

    @Test
    void everyMethodDeclaresItself() {
        assertThat(Methods.specs()).extracting(MethodSpec::name).containsExactlyElementsOf(Methods.names());
        for (MethodSpec s : Methods.specs()) {
            assertThat(s.description()).as(s.name()).isNotBlank();
            assertThat(s.paper()).as(s.name()).isNotBlank();
            assertThat(s.section()).as(s.name()).isNotBlank();
            assertThat(Methods.byName(s.name()).name()).isEqualTo(s.name());
            for (OptionSpec o : s.options()) {
                assertThat(o.description()).as(s.name() + " " + o.name()).isNotBlank();
            }
            // the defaults resolve, and resolving a resolved map gives it back
            Map<String, String> d = s.resolve(Map.of()).values();
            assertThat(s.resolve(d).values()).isEqualTo(d);
        }
    }

    @Test
    void unknownKeyIsRejectedWithTheOptionsAndDefaults() {
        assertThatThrownBy(() -> Methods.spec("cot-sc").resolve(Map.of("kk", "3")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown option 'kk' for method cot-sc; its options: k=21 (int), temperature=0.7 (double),"
                        + " max-tokens=256 (int), endpoint=chat (enum(chat|completions))");
    }

    @Test
    void wrongTypeIsRejected() {
        assertThatThrownBy(() -> Methods.spec("madam-rag").resolve(Map.of("rounds", "abc")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("option rounds must be an int, was 'abc'; madam-rag's options: rounds=3 (int)")
                .hasMessageNotContaining("\n");
        assertThatThrownBy(() -> Methods.spec("madam-rag").resolve(Map.of("aggregator", "maybe")))
                .hasMessageStartingWith("option aggregator must be true or false, was 'maybe'");
        assertThatThrownBy(() -> Methods.spec("march").resolve(Map.of("policy", "retry")))
                .hasMessageStartingWith("option policy must be one of report, abstain, regenerate, was 'retry'");
        assertThatThrownBy(() -> Methods.spec("cot-sc").resolve(Map.of("temperature", "hot")))
                .hasMessageStartingWith("option temperature must be a number");
    }

    @Test
    void resolvedOptionsAreCanonicalAndComplete() {
        Map<String, String> r = Methods.spec("madam-rag").resolve(Map.of("history", "Agents", "shuffle", "no")).values();
        assertThat(r).containsExactly(Map.entry("rounds", "3"), Map.entry("aggregator", "true"),
                Map.entry("early-stop", "true"), Map.entry("history", "others"), Map.entry("shuffle", "false"),
                Map.entry("max-tokens", "512"));
    }

    @Test
    void madamHistoryAcceptsTheReadmeSpellingAndTheOldOne() {
        assertThat(MadamSettings.DEFAULT.history()).isEqualTo("others");
        assertThat(Methods.spec("madam-rag").resolve(Map.of("history", "others")).string("history")).isEqualTo("others");
        assertThat(Methods.spec("madam-rag").resolve(Map.of("history", "agents")).string("history")).isEqualTo("others");
        assertThat(Methods.spec("madam-rag").option("history").typeName()).isEqualTo("enum(others|aggregator|both)");
    }

    @Test
    void marchSettingsComeFromTheDeclaration() {
        MarchSettings d = MarchSettings.defaults();
        assertThat(d.samples()).isEqualTo(3);
        assertThat(d.match()).isEqualTo("authors");
        assertThat(d.unparseableReward()).isNull();
        MarchSettings t = MarchSettings.fromOptions(Map.of("claims", "typed", "scalar", "0/1", "unparseable-reward", "0"));
        assertThat(t.typedClaims()).isTrue();
        assertThat(t.match()).isEqualTo("typed");
        assertThat(t.unparseableReward()).isEqualTo(0.0);
        assertThat(Methods.spec("march").resolve(Map.of()).has("match")).isFalse();
    }
}
