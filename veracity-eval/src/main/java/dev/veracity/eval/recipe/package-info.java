/**
 * Reproduction recipes: one YAML file per main table of each paper ({@code recipes/NAME.yaml}), read into typed
 * {@link dev.veracity.eval.recipe.Recipe}s by {@link dev.veracity.eval.recipe.Recipes} with every reference checked
 * against the registries (methods and their options, datasets, metrics, judges) and every problem reported on its
 * own line; {@link dev.veracity.eval.recipe.RecipeTable} sets our runs' numbers beside the paper's, cell by cell.
 * {@code veracity reproduce} runs them through the evaluation runner's resumable run folders.
 */
package dev.veracity.eval.recipe;
