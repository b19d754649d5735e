package dev.veracity.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The in-process models are an optional part: found on the class path, or a one-line error saying how to add it. */
class LocalEmbeddersTest {

    /** Stands in for the embed part's provider. */
    public static final class FakeProvider implements LocalEmbedders.Provider {

        static final Embedder BGE = new Embedder() {
            @Override
            public List<float[]> embed(List<String> texts) {
                return texts.stream().map(t -> new float[] {1f}).toList();
            }

            @Override
            public int dimension() {
                return 1;
            }

            @Override
            public String name() {
                return LocalEmbedders.BGE_SMALL;
            }
        };

        @Override
        public Embedder bgeSmall() {
            return BGE;
        }

        @Override
        public Embedder e5(Path onnxModel, Path tokenizerJson) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void withoutThePartEveryInProcessModelSaysHowToAddItAndExitsAsBadInput() {
        // veracity-core's tests have no embed part on their class path, as a runtime without it
        assertThat(LocalEmbedders.available()).isFalse();
        for (Runnable lookup : List.<Runnable>of(LocalEmbedders::bgeSmall, LocalEmbedders::require,
                () -> LocalEmbedders.e5(Path.of("m.onnx"), Path.of("tokenizer.json")),
                () -> LocalEmbedders.byName(LocalEmbedders.BGE_SMALL, null, null))) {
            assertThatThrownBy(lookup::run).isInstanceOf(LocalEmbedders.PartMissing.class)
                    .isInstanceOf(IllegalStateException.class) // the CLI's one line and exit 2
                    .hasMessage("the in-process embedding model (bge-small, e5) is the optional embed part (ONNX Runtime,"
                            + " about 140 MB), which this runtime does not hold: add it with"
                            + " `./mvnw -B -q -DskipTests -pl veracity-embed-onnx -am package` (./veracity then uses it),"
                            + " or embed on an OpenAI-compatible server with --embedder URL where the command takes it");
        }
    }

    @Test
    void aNameIsCheckedBeforeThePartIsLookedFor() {
        assertThatThrownBy(() -> LocalEmbedders.byName("minilm", null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unknown embedding model 'minilm': use bge-small-en-v1.5-q or e5-small-v2");
        assertThatThrownBy(() -> LocalEmbedders.byName(LocalEmbedders.E5_SMALL, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("This index was embedded with e5-small-v2: give --onnx-model and --tokenizer");
    }

    @Test
    void aProviderRegisteredOnTheClassPathIsFound(@TempDir Path dir) throws Exception {
        Path services = Files.createDirectories(dir.resolve("META-INF/services"));
        Files.writeString(services.resolve(LocalEmbedders.Provider.class.getName()), FakeProvider.class.getName() + "\n");
        try (URLClassLoader withPart = new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader())) {
            assertThat(LocalEmbedders.find(withPart)).get().isInstanceOf(FakeProvider.class);
            assertThat(LocalEmbedders.provider(withPart).bgeSmall()).isSameAs(FakeProvider.BGE);
        }
        assertThatThrownBy(() -> LocalEmbedders.provider(getClass().getClassLoader()))
                .isInstanceOf(LocalEmbedders.PartMissing.class);
    }

    /**
     * The embed part in a {@code --plugins} folder: a jar whose services file names the provider is found through
     * {@link dev.veracity.plugin.Plugins}, as every plug-in is, and forgotten when the folder goes. (The provider class
     * is this test's, so no ONNX is needed; the folder's jar is what registers it.)
     */
    @Test
    void thePartInAPluginsFolderIsFoundThroughThePluginsAndForgottenWhenTheFolderGoes(@TempDir Path dir) throws Exception {
        try (java.util.jar.JarOutputStream jar = new java.util.jar.JarOutputStream(
                Files.newOutputStream(dir.resolve("embed-part.jar")))) {
            jar.putNextEntry(new java.util.jar.JarEntry("META-INF/services/" + LocalEmbedders.Provider.class.getName()));
            jar.write((FakeProvider.class.getName() + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
            jar.closeEntry();
        }
        Path before = dev.veracity.plugin.Plugins.folder();
        try {
            dev.veracity.plugin.Plugins.useFolder(dir);
            assertThat(LocalEmbedders.available()).isTrue();
            LocalEmbedders.require();
            assertThat(LocalEmbedders.bgeSmall()).isSameAs(FakeProvider.BGE);
            assertThat(LocalEmbedders.byName(LocalEmbedders.BGE_SMALL, null, null)).isSameAs(FakeProvider.BGE);

            dev.veracity.plugin.Plugins.useFolder(null); // the class path alone: no part
            assertThat(LocalEmbedders.available()).isFalse();
            assertThatThrownBy(LocalEmbedders::bgeSmall).isInstanceOf(LocalEmbedders.PartMissing.class);
        } finally {
            dev.veracity.plugin.Plugins.useFolder(before);
        }
    }
}
