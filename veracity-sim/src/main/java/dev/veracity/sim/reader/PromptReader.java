package dev.veracity.sim.reader;

import java.util.Optional;

/**
 * One piece of the simulator's built-in reader: it recognises the prompts of one method (or of the judges) by their
 * fixed phrases and answers each in that role's format. A service, found with {@link java.util.ServiceLoader}: list
 * the implementation (public, with a public no-argument constructor) in
 * {@code META-INF/services/dev.veracity.sim.reader.PromptReader}. The project's own readers are listed so in
 * veracity-sim; a method plug-in's jar lists the reader of its prompts the same way, and the simulator of
 * {@code veracity sim}, {@code demo} and {@code reproduce} then answers them ({@code --plugins DIR}).
 *
 * <p>The readers are tried in {@link #order()}, lowest first (then by name), and the first that recognises a prompt
 * answers it. Model output and documents inside a prompt are untrusted: a reader must be linear in the prompt's
 * length; one that throws is passed over as if it had not recognised the prompt.
 */
public interface PromptReader {

    /** The judges' reader: first, since a judge's prompt quotes a method's output, whatever phrases it holds. */
    int JUDGES = 10;
    /** Where the project's method readers end: the baselines' reader, the most general, is last of them. */
    int BASELINES = 70;
    /** Where a reader that does not say goes: after the project's own (choose a lower order to go before one). */
    int PLUGIN = 100;

    /** A short name that says whose prompts it reads ("march", "judges"); unique among the readers in use. */
    String name();

    /** Its place among the readers, lowest tried first; {@link #PLUGIN} unless it says. */
    default int order() {
        return PLUGIN;
    }

    /**
     * The answer to {@code prompt} (for chat, the messages' contents joined with a blank line) in its role's format,
     * or empty when the prompt is not one this reader recognises. Deterministic, linear in the prompt's length.
     */
    Optional<String> read(String prompt);
}
