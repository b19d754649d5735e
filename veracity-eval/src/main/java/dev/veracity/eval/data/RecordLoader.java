package dev.veracity.eval.data;

import dev.veracity.qa.QaItem;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A loader that turns each record of a JSONL / JSON array / TSV file into at most one item. Extend it for a dataset of
 * your own ({@link DatasetProvider}): it reads the file as every built-in loader does (compressed by name, strictly
 * UTF-8, the declared fields checked, repeated ids refused, every problem a {@link DatasetException} naming file and
 * line), and you write only {@link #convert}.
 */
public abstract class RecordLoader implements DatasetLoader {

    private final String name;

    /** @param name the dataset's registry name */
    protected RecordLoader(String name) {
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
    protected abstract QaItem convert(Record record);

    @Override
    public Stream<QaItem> stream(Path file, GoldFields gold) {
        return items(Records.open(file, wrapperFields()), gold);
    }

    /**
     * The items of these records; unexpected failures become DatasetExceptions naming the record. Each record must
     * carry the dataset's fields, and its gold fields when {@code gold} requires them ({@link FieldCheck}), and each
     * item an id of its own: a repeated id is refused, since a run keyed by id would answer the question once and count
     * it twice.
     */
    Stream<QaItem> items(Stream<Record> records, GoldFields gold) {
        FieldCheck fields = FieldCheck.of(name, gold);
        SeenIds ids = new SeenIds();
        long[] given = {0};
        return records.<QaItem>mapMulti((rec, sink) -> {
            fields.require(rec);
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
                if (!ids.add(item.id()) && amongFirst(rec.file(), item.id(), given[0])) {
                    throw rec.error("duplicate id \"" + item.id() + "\": an earlier record has it; every question"
                            + " needs its own id");
                }
                given[0]++;
                sink.accept(item);
            }
        });
    }

    /** Whether one of the first {@code count} items of the file has this id: reads them again (they were checked). */
    boolean amongFirst(Path file, String id, long count) {
        try (Stream<QaItem> earlier = stream(file, GoldFields.OPTIONAL)) {
            return earlier.limit(count).anyMatch(i -> i.id().equals(id));
        }
    }

    @Override
    public String toString() {
        return "DatasetLoader[" + name + "]";
    }
}
