package dev.veracity.eval.recipe;

import java.util.List;
import java.util.Objects;

/**
 * Contributes recipes (a service: list the implementation in
 * {@code META-INF/services/dev.veracity.eval.recipe.RecipeProvider}): a recipe is the YAML {@code reproduce} reads
 * (the bundled ones in {@code recipes/}, see {@link Recipe}), checked like every other before anything runs, so a
 * plug-in's recipe may name the plug-in's own methods, datasets and metrics. The bundled recipes come the same way
 * ({@link BuiltInRecipes}).
 */
public interface RecipeProvider {

    /**
     * One recipe.
     *
     * @param name its name ({@code reproduce NAME}), unique over every provider
     * @param yaml its text
     */
    record Entry(String name, String yaml) {
        public Entry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(yaml, "yaml");
        }
    }

    /** The recipes, in the order {@code reproduce --list} lists them. */
    List<Entry> recipes();
}
