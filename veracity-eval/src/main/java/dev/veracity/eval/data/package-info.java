/**
 * Loaders that read benchmarks' native release files into {@link dev.veracity.qa.QaItem}s, streaming.
 *
 * <p>{@link dev.veracity.eval.data.Datasets#byName(String)} gives the {@link dev.veracity.eval.data.DatasetLoader}
 * for a name; {@link dev.veracity.eval.data.DatasetLoader#stream(java.nio.file.Path)} reads a file lazily, one
 * record at a time (JSONL line by line, JSON arrays element by element with Jackson's streaming parser, TSV row by
 * row), decompressing {@code .bz2} / {@code .gz} by file name. Any problem is a
 * {@link dev.veracity.eval.data.DatasetException} whose message names the file and the line or element, e.g.
 * {@code RAMDocs_test.jsonl:17: missing field "question"}. Records without an id get {@code <dataset>-<index>}
 * with a 0-based index (the line for JSONL, the element for arrays, the data row for TSV), so ids are stable.
 *
 * <p>What would load into wrong numbers is refused the same way: a record without the fields its dataset declares
 * ({@link dev.veracity.eval.data.DatasetSpec#fields()}, and its gold answers'
 * {@link dev.veracity.eval.data.DatasetSpec#goldFields()} where answers are scored or used as labels,
 * {@link dev.veracity.eval.data.GoldFields}; the message names the dataset whose fields it has), text that is not UTF-8,
 * a repeated id and a file without a record.
 */
package dev.veracity.eval.data;
