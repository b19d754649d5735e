package dev.veracity.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** A test that needs ../shared skips without it on a developer's machine and fails without it under CI. */
class SharedTest {

    @Test
    void ciOrTheVariableMakesItRequiredAndTheVariableWins() {
        assertThat(Shared.required(Map.of())).isFalse();
        assertThat(Shared.required(Map.of("CI", "true"))).isTrue();
        assertThat(Shared.required(Map.of("CI", "1"))).isTrue();
        assertThat(Shared.required(Map.of("CI", "false"))).isFalse();
        assertThat(Shared.required(Map.of("CI", ""))).isFalse();
        assertThat(Shared.required(Map.of(Shared.REQUIRE, "1"))).isTrue();
        assertThat(Shared.required(Map.of(Shared.REQUIRE, "true"))).isTrue();
        assertThat(Shared.required(Map.of("CI", "true", Shared.REQUIRE, "0"))).isFalse();
        assertThat(Shared.required(Map.of("CI", "false", Shared.REQUIRE, "1"))).isTrue();
    }

    @Test
    void aMissingFolderFailsUnderCiSayingWhatIsMissingAndHowToGoOn() {
        assertThatThrownBy(() -> Shared.require("papers", Optional.empty(), Map.of("CI", "true")))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessage("../shared/papers is not beside this checkout, and this run needs it (CI=true): put the"
                        + " shared folder beside the repository or name it with -Dveracity.shared=DIR;"
                        + " VERACITY_REQUIRE_SHARED=0 skips these tests instead");
        assertThatThrownBy(() -> Shared.require("data/ramdocs/RAMDocs_test.jsonl", Optional.empty(),
                Map.of(Shared.REQUIRE, "1"))).isInstanceOf(AssertionFailedError.class)
                .hasMessageStartingWith("../shared/data/ramdocs/RAMDocs_test.jsonl is not beside this checkout, and"
                        + " this run needs it (VERACITY_REQUIRE_SHARED=1)");
    }

    @Test
    void aMissingFolderSkipsOnADevelopersMachine() {
        assertThatThrownBy(() -> Shared.require("papers", Optional.empty(), Map.of()))
                .isInstanceOf(TestAbortedException.class)
                .hasMessage("../shared/papers is not beside this checkout: skipped here; under CI (CI or"
                        + " VERACITY_REQUIRE_SHARED=1 set) this test fails");
        assertThatThrownBy(() -> Shared.require("papers", Optional.empty(), Map.of("CI", "true", Shared.REQUIRE, "0")))
                .isInstanceOf(TestAbortedException.class);
    }

    @Test
    void anotherUnmetNeedSkipsHereAndFailsUnderCiSayingWhy() {
        assertThatThrownBy(() -> Shared.assumeUnlessCi(false, "/x is not a git checkout", Map.of("CI", "true")))
                .isInstanceOf(AssertionFailedError.class)
                .hasMessage("/x is not a git checkout, and this run needs it (CI=true); VERACITY_REQUIRE_SHARED=0 skips"
                        + " it instead");
        assertThatThrownBy(() -> Shared.assumeUnlessCi(false, "/x is not a git checkout", Map.of()))
                .isInstanceOf(TestAbortedException.class).hasMessageStartingWith("/x is not a git checkout: skipped here");
        Shared.assumeUnlessCi(true, "unused", Map.of("CI", "true"));
    }

    @Test
    void aFoundFolderIsReturnedWhateverTheEnvironment() {
        Path p = Path.of("/somewhere/shared/papers");
        assertThat(Shared.require("papers", Optional.of(p), Map.of("CI", "true"))).isEqualTo(p);
        assertThat(Shared.require("papers", Optional.of(p), Map.of())).isEqualTo(p);
    }

    @Test
    void thePropertyNamesTheFolderAndNothingElseIsLookedFor() {
        String before = System.getProperty(Shared.PROPERTY);
        try {
            System.setProperty(Shared.PROPERTY, "/nonexistent-veracity-shared");
            assertThat(Shared.find("papers")).isEmpty();
            assertThat(Shared.findData("ramdocs")).isEmpty();
        } finally {
            if (before == null) {
                System.clearProperty(Shared.PROPERTY);
            } else {
                System.setProperty(Shared.PROPERTY, before);
            }
        }
    }
}
