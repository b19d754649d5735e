package dev.veracity.eval.recipe;

import dev.veracity.plugin.Plugins;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The bundled recipes ({@code recipes/NAME.yaml} on the class path, listed in {@code recipes/index.txt}),
 * contributed as any plug-in contributes recipes, listed first.
 */
public final class BuiltInRecipes implements RecipeProvider, Plugins.Ordered {

    /** The class-path folder of the bundled recipes. */
    static final String FOLDER = "recipes/";

    @Override
    public List<Entry> recipes() {
        String index = resource("index.txt");
        if (index == null) {
            throw new IllegalStateException("the bundled recipe index " + FOLDER + "index.txt is missing");
        }
        return index.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .map(name -> {
                    String yaml = resource(name + ".yaml");
                    if (yaml == null) {
                        throw new IllegalStateException("the bundled recipe " + FOLDER + name + ".yaml is missing");
                    }
                    return new Entry(name, yaml);
                }).toList();
    }

    @Override
    public int order() {
        return BUILT_IN;
    }

    private static String resource(String file) {
        try (InputStream in = BuiltInRecipes.class.getClassLoader().getResourceAsStream(FOLDER + file)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
