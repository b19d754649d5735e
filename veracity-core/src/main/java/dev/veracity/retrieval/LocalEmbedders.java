package dev.veracity.retrieval;

import java.nio.file.Path;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The embedding models that run in this process: bge-small-en-v1.5 (quantised, from its jar) and e5-small-v2 (from the
 * user's ONNX export). They run on ONNX Runtime, which with the model and its tokenizer weighs about 140 MB, so they
 * are an optional part of the runtime, the embed part (module {@code veracity-embed-onnx}), found on the class path
 * or in a {@code --plugins} folder as plug-ins are ({@link dev.veracity.plugin.Plugins}, a {@link ServiceLoader}
 * service). Without it each lookup here throws {@link PartMissing}, whose one-line message says
 * how to add the part; an OpenAI-compatible embedding server ({@code --embedder URL}) needs no part.
 */
public final class LocalEmbedders {

    /** The name an index records for bge-small-en-v1.5 (int8): queries are embedded by the model passages were. */
    public static final String BGE_SMALL = "bge-small-en-v1.5-q";
    public static final String E5_SMALL = "e5-small-v2";

    /** The one command that adds the embed part; {@code ./veracity} puts it on its class path once it is built. */
    public static final String ADD_COMMAND = "./mvnw -B -q -DskipTests -pl veracity-embed-onnx -am package";

    /** What the embed part provides (registered in its {@code META-INF/services}). */
    public interface Provider {

        /** bge-small-en-v1.5, quantised, 384 dimensions; loaded once per JVM. */
        Embedder bgeSmall();

        /** e5-small-v2 from the user's ONNX model and HuggingFace {@code tokenizer.json}. */
        Embedder e5(Path onnxModel, Path tokenizerJson);
    }

    /** The embed part is not on the class path: says what needs it and how to add it. */
    public static final class PartMissing extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        PartMissing() {
            super("the in-process embedding model (bge-small, e5) is the optional embed part (ONNX Runtime, about 140 MB),"
                    + " which this runtime does not hold: add it with `" + ADD_COMMAND + "` (./veracity then uses it),"
                    + " or embed on an OpenAI-compatible server with --embedder URL where the command takes it");
        }
    }

    /** The provider found for the plug-in folder of {@code generation} ({@link dev.veracity.plugin.Plugins}), or null. */
    private record Found(int generation, Provider provider) {
    }

    private static volatile Found found;

    private LocalEmbedders() {
    }

    /** Whether the embed part is there: on the class path or in the {@code --plugins} folder. */
    public static boolean available() {
        return lookup() != null;
    }

    /** Fails with {@link PartMissing} unless the embed part is there: for a command to check before it starts work. */
    public static void require() {
        provider();
    }

    /** bge-small-en-v1.5 in process. */
    public static Embedder bgeSmall() {
        return provider().bgeSmall();
    }

    /** e5-small-v2 in process, from the user's files. */
    public static Embedder e5(Path onnxModel, Path tokenizerJson) {
        return provider().e5(onnxModel, tokenizerJson);
    }

    /** The in-process embedder an index was built with, by the name stored in its metadata. */
    public static Embedder byName(String name, Path onnxModel, Path tokenizerJson) {
        if (BGE_SMALL.equals(name)) {
            return bgeSmall();
        }
        if (E5_SMALL.equals(name)) {
            if (onnxModel == null || tokenizerJson == null) {
                throw new IllegalArgumentException("This index was embedded with e5-small-v2: give --onnx-model and --tokenizer");
            }
            return e5(onnxModel, tokenizerJson);
        }
        throw new IllegalArgumentException("Unknown embedding model '" + name + "': use " + BGE_SMALL + " or " + E5_SMALL);
    }

    private static Provider provider() {
        Provider p = lookup();
        if (p == null) {
            throw new PartMissing();
        }
        return p;
    }

    /**
     * The class path's provider (the launcher adds the part when it is built) or a {@code --plugins} folder's, as every
     * plug-in's; looked for again when the folder changes.
     */
    private static Provider lookup() {
        int generation = dev.veracity.plugin.Plugins.generation();
        Found f = found;
        if (f == null || f.generation() != generation) {
            f = new Found(generation, dev.veracity.plugin.Plugins.load(Provider.class).stream().findFirst().orElse(null));
            found = f;
        }
        return f.provider();
    }

    /** The embed part's provider among the classes {@code loader} sees, if any. */
    static Optional<Provider> find(ClassLoader loader) {
        return ServiceLoader.load(Provider.class, loader).findFirst();
    }

    /** As {@link #provider()}, for a given class loader (tests: one without the part). */
    static Provider provider(ClassLoader loader) {
        return find(loader).orElseThrow(PartMissing::new);
    }
}
