package dev.veracity.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The {@code shared} folder beside the checkout: the papers' texts ({@code shared/papers}, read by the prompt diffs and
 * the recipe-number checks) and the benchmark samples ({@code shared/data}). It is found by walking up from the
 * working directory (a module's folder under Maven), or at the {@code veracity.shared} system property.
 *
 * <p>A test that needs something of it and does not find it is skipped on a developer's machine, but fails under CI:
 * a check of the papers that silently skips is no check. CI is {@value #REQUIRE}{@code =1} ({@code .ci/run} sets it)
 * or, when that variable is unset, a {@code CI} variable (set by the usual CI services); {@value #REQUIRE}{@code =0}
 * lets the tests skip anyway.
 */
public final class Shared {

    /** The environment variable that decides whether a missing shared folder fails (1, true) or skips (0, false). */
    public static final String REQUIRE = "VERACITY_REQUIRE_SHARED";
    /** The system property naming the shared folder, instead of looking for it beside the checkout. */
    public static final String PROPERTY = "veracity.shared";

    private Shared() {
    }

    /** {@code shared/papers}, or the test skips (fails under CI). */
    public static Path papers() {
        return require("papers", find("papers"), System.getenv());
    }

    /** {@code shared/data/<relative>} (a file or a folder), or the test skips (fails under CI). */
    public static Path data(String relative) {
        return require("data/" + relative, find("data/" + relative), System.getenv());
    }

    /** {@code shared/data/<relative>} when it is there: for a test that only does more with it. */
    public static Optional<Path> findData(String relative) {
        return find("data/" + relative);
    }

    /** {@code shared/<relative>} under the folder the property names, else the first found walking up; or none. */
    static Optional<Path> find(String relative) {
        String named = System.getProperty(PROPERTY);
        if (named != null && !named.isBlank()) {
            Path p = Path.of(named).resolve(relative);
            return Files.exists(p) ? Optional.of(p.toAbsolutePath().normalize()) : Optional.empty();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path p = dir.resolve("shared").resolve(relative);
            if (Files.exists(p)) {
                return Optional.of(p.normalize());
            }
        }
        return Optional.empty();
    }

    /**
     * What was found, else a skipped test, or under CI ({@link #required}) a failed one; both say what is missing.
     *
     * @param relative what the test needs, under {@code shared/}
     * @param env      the environment that decides (the process's)
     */
    static Path require(String relative, Optional<Path> found, Map<String, String> env) {
        if (found.isPresent()) {
            return found.get();
        }
        String missing = "../shared/" + relative + " is not beside this checkout";
        if (required(env)) {
            Assertions.fail(missing + ", and this run needs it (" + why(env) + "): put the shared folder beside the"
                    + " repository or name it with -D" + PROPERTY + "=DIR; " + REQUIRE + "=0 skips these tests instead");
        }
        Assumptions.abort(missing + ": skipped here; under CI (CI or " + REQUIRE + "=1 set) this test fails");
        throw new AssertionError("unreachable"); // abort always throws
    }

    /**
     * Another need of a test that CI must meet (a git checkout, ...): when {@code met} is false the test skips on a
     * developer's machine and fails under CI ({@link #required}), both with {@code missing} and, under CI, the
     * variable that made it fail.
     *
     * @param missing what is not there and why the test needs it, as a phrase
     */
    public static void assumeUnlessCi(boolean met, String missing) {
        assumeUnlessCi(met, missing, System.getenv());
    }

    static void assumeUnlessCi(boolean met, String missing, Map<String, String> env) {
        if (met) {
            return;
        }
        if (required(env)) {
            Assertions.fail(missing + ", and this run needs it (" + why(env) + "); " + REQUIRE + "=0 skips it instead");
        }
        Assumptions.abort(missing + ": skipped here; under CI (CI or " + REQUIRE + "=1 set) this test fails");
    }

    /** Whether a missing shared folder fails: {@value #REQUIRE} when set, else whether {@code CI} is set. */
    static boolean required(Map<String, String> env) {
        String asked = env.get(REQUIRE);
        return asked != null && !asked.isBlank() ? yes(asked) : yes(env.get("CI"));
    }

    private static boolean yes(String value) {
        if (value == null || value.isBlank()) {
            return false;
        }
        String v = value.strip().toLowerCase(Locale.ROOT);
        return !v.equals("0") && !v.equals("false") && !v.equals("no");
    }

    private static String why(Map<String, String> env) {
        String asked = env.get(REQUIRE);
        return asked != null && !asked.isBlank() ? REQUIRE + "=" + asked : "CI=" + env.get("CI");
    }
}
