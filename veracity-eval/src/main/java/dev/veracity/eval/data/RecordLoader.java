package dev.veracity.eval.data;

import dev.veracity.qa.QaItem;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Stream;

/** A loader that turns each record of a JSONL / JSON array / TSV file into at most one item. */
abstract class RecordLoader implements DatasetLoader {

    private final String name;

    RecordLoader(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    /** Field names whose array value is the list of records when the file is one JSON object. */
    Set<String> wrapperFields() {
        return Set.of("data");
    }

    /** The item for a record, or null to leave the record out (a filter such as MuSiQue answerable-only). */
    abstract QaItem convert(Record record);

    @Override
    public Stream<QaItem> stream(Path file) {
        return items(Records.open(file, wrapperFields()));
    }

    /** The items of these records; unexpected failures become DatasetExceptions naming the record. */
    Stream<QaItem> items(Stream<Record> records) {
        return records.<QaItem>mapMulti((rec, sink) -> {
            QaItem item;
            try {
                item = convert(rec);
            } catch (DatasetException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new DatasetException(rec.file(), rec.where(), "cannot read " + name + " record: "
                        + Sources.describe(e), e);
            }
            if (item != null) {
                sink.accept(item);
            }
        });
    }

    @Override
    public String toString() {
        return "DatasetLoader[" + name + "]";
    }
}
