package dev.veracity.eval.data;

import java.util.List;

/**
 * Contributes datasets (a service: list the implementation in
 * {@code META-INF/services/dev.veracity.eval.data.DatasetProvider}): each a {@link DatasetSpec} with its names, loader,
 * official metrics and files. Every command that reads a dataset ({@code eval}, {@code reproduce}, {@code probe},
 * {@code rl export}, {@code index --format dataset}) then knows it by name, as it knows the built-in ones
 * ({@link BuiltInDatasets}).
 */
public interface DatasetProvider {

    /** The datasets, in the order {@code ./veracity datasets list} lists them. */
    List<DatasetSpec> datasets();
}
