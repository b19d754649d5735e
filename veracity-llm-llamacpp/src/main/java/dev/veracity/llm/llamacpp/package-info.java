/**
 * An {@link dev.veracity.llm.LlmBackend} for a GGUF model run in-process by llama.cpp (de.kherud:llama JNI):
 * {@link dev.veracity.llm.llamacpp.LlamaCppBackend}. No server, no network; the bundled natives are CPU builds
 * for Linux, macOS and Windows.
 *
 * <p>{@link dev.veracity.llm.llamacpp.GgufMetadata} reads and checks a GGUF file's header in Java first, so a bad
 * file fails with a message that names the problem rather than llama.cpp's generic "could not load model". The
 * package-private classes map sampling settings, render chat prompts and run the token loop (deadline, stop
 * sequences, token counts).
 *
 * <p>The JVM needs {@code --enable-native-access=ALL-UNNAMED} on JDK 24+ to load the natives without warnings.
 */
package dev.veracity.llm.llamacpp;
