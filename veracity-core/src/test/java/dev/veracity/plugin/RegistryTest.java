package dev.veracity.plugin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The one registry of plug-in entries, with aliases: an entry is found by its name or an alias compared by the
 * registry's key, a name or alias two providers claim is one line naming both, and a provider that throws is one line
 * naming it (the providers are this class's, listed in the test class path's {@code META-INF/services}).
 */
public class RegistryTest {

    /** A test entry: a name and its aliases. */
    public record Entry(String name, List<String> aliases) {
    }

    /** A test service. */
    public interface Provider {
        List<Entry> entries();
    }

    /** A second service, whose two providers claim one alias. */
    public interface ClashingProvider {
        List<Entry> entries();
    }

    /** A third service, whose provider throws as a jar built against another Veracity does. */
    public interface BrokenProvider {
        List<Entry> entries();
    }

    public static final class BuiltIns implements Provider, Plugins.Ordered {
        @Override
        public List<Entry> entries() {
            return List.of(new Entry("nq-open", List.of("nq", "nqopen")), new Entry("hotpotqa", List.of("hotpot")));
        }

        @Override
        public int order() {
            return BUILT_IN;
        }
    }

    public static final class APlugin implements Provider {
        @Override
        public List<Entry> entries() {
            return List.of(new Entry("mine", List.of()));
        }
    }

    public static final class First implements ClashingProvider {
        @Override
        public List<Entry> entries() {
            return List.of(new Entry("nq-open", List.of("nq")));
        }
    }

    public static final class Second implements ClashingProvider {
        @Override
        public List<Entry> entries() {
            return List.of(new Entry("natural-questions", List.of("NQ")));
        }
    }

    public static final class Broken implements BrokenProvider {
        @Override
        public List<Entry> entries() {
            throw new NoClassDefFoundError("dev/veracity/Gone");
        }
    }

    private static String key(String name) {
        return name == null ? "" : name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Test
    void anEntryIsFoundByItsNameOrAnAliasComparedByTheKey() {
        Registry<Provider, Entry> r = new Registry<>(Provider.class, Provider::entries, Entry::name, Entry::aliases,
                RegistryTest::key, "dataset");
        assertThat(r.byName().keySet()).containsExactly("nq-open", "hotpotqa", "mine");
        assertThat(r.find("NQ").name()).isEqualTo("nq-open");
        assertThat(r.find("nq-open").name()).isEqualTo("nq-open");
        assertThat(r.find("NQ_OPEN").name()).isEqualTo("nq-open");
        assertThat(r.find(" Hotpot ").name()).isEqualTo("hotpotqa");
        assertThat(r.find("squad")).isNull();
        assertThat(r.find("NQOpen").name()).isEqualTo("nq-open");
        assertThat(r.aliases()).containsExactly(java.util.Map.entry("nq", "nq-open"),
                java.util.Map.entry("nqopen", "nq-open"), java.util.Map.entry("hotpot", "hotpotqa"));
    }

    @Test
    void withoutAliasesNamesAreExact() {
        Registry<Provider, Entry> r = new Registry<>(Provider.class, Provider::entries, Entry::name, "method");
        assertThat(r.find("nq-open")).isNotNull();
        assertThat(r.find("nq")).isNull();
        assertThat(r.find("NQ-OPEN")).isNull();
        assertThat(r.aliases()).isEmpty();
    }

    @Test
    void aNameOrAliasTwoProvidersClaimIsOneLineNamingBoth() {
        Registry<ClashingProvider, Entry> r = new Registry<>(ClashingProvider.class, ClashingProvider::entries,
                Entry::name, Entry::aliases, RegistryTest::key, "dataset");
        assertThatThrownBy(r::byName).isInstanceOf(IllegalStateException.class)
                .hasMessage("two datasets named 'NQ': one from " + First.class.getName() + ", one from "
                        + Second.class.getName() + "; rename one of them (a dataset's name and aliases must be unique)");
    }

    @Test
    void aProviderThatCannotBeReadIsOneLineNamingIt() {
        Registry<BrokenProvider, Entry> r = new Registry<>(BrokenProvider.class, BrokenProvider::entries, Entry::name,
                Entry::aliases, RegistryTest::key, "dataset");
        assertThatThrownBy(() -> r.find("x")).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the datasets of " + Broken.class.getName() + " could not be read")
                .hasMessageContaining("rebuild the plug-in against this Veracity").hasMessageNotContaining("\n");
    }
}
