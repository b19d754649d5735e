package dev.veracity.rl.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.rl.jsonl.BadInputException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Parquet through parquet-java, without Hadoop: each row, a JSON object, becomes a record of the given schema (nested
 * lists in Parquet's three-level LIST layout, structs as groups, a missing or null value as an absent optional field)
 * and is written to a temporary file beside the target, which is moved over it on {@link #commit()}. Row order is kept.
 *
 * <p>parquet-java's default codecs and configuration load Hadoop's classes; a {@link PlainParquetConfiguration} and
 * the gzip codec below (the JDK's zlib, no native library to carry) keep it to parquet-java's own jars. Every reader
 * VeRL uses (pyarrow, through HuggingFace datasets) reads gzip.
 */
final class ParquetSink implements RowSink {

    private final Path target;
    private final Path tmp;
    private final MessageType schema;
    private final SimpleGroupFactory groups;
    private final ParquetWriter<Group> writer;
    private boolean closed;
    private boolean committed;

    ParquetSink(Path target, MessageType schema) {
        this.target = target.toAbsolutePath();
        this.schema = schema;
        this.groups = new SimpleGroupFactory(schema);
        Path dir = this.target.getParent();
        try {
            this.tmp = Files.createTempFile(dir, "." + this.target.getFileName(), ".tmp");
            this.writer = ExampleParquetWriter.builder(new LocalOutputFile(tmp))
                    .withConf(new PlainParquetConfiguration())
                    .withType(schema)
                    .withCodecFactory(Gzip.FACTORY)
                    .withCompressionCodec(CompressionCodecName.GZIP)
                    .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                    .build();
        } catch (IOException e) {
            throw new BadInputException(target + ": cannot write (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")", e);
        }
    }

    @Override
    public void write(ObjectNode row) {
        try {
            writer.write(record(row));
        } catch (IOException e) {
            throw new UncheckedIOException(target + ": cannot write: " + e.getMessage(), e);
        }
    }

    /** The row as a record of the schema; a field the schema lacks, or a value of another type, is our bug. */
    Group record(ObjectNode row) {
        Group g = groups.newGroup();
        fill(g, schema, row, "");
        return g;
    }

    private static void fill(Group g, GroupType type, JsonNode object, String path) {
        if (!object.isObject()) {
            throw mismatch(path, type, object);
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = object.properties().iterator(); it.hasNext(); ) {
            String name = it.next().getKey();
            if (!type.containsField(name)) {
                throw new IllegalStateException("parquet row: field " + child(path, name) + " is not in the schema");
            }
        }
        for (int i = 0; i < type.getFieldCount(); i++) {
            Type field = type.getType(i);
            JsonNode value = object.get(field.getName());
            if (value == null || value.isNull()) {
                if (field.isRepetition(Type.Repetition.REQUIRED)) {
                    throw new IllegalStateException("parquet row: required field " + child(path, field.getName()) + " is missing");
                }
                continue;
            }
            add(g, i, field, value, child(path, field.getName()));
        }
    }

    private static void add(Group g, int index, Type field, JsonNode value, String path) {
        if (field.isPrimitive()) {
            PrimitiveType p = field.asPrimitiveType();
            switch (p.getPrimitiveTypeName()) {
                case BINARY -> {
                    if (!value.isTextual() || !(p.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation)) {
                        throw mismatch(path, field, value);
                    }
                    g.add(index, value.textValue());
                }
                case INT64 -> {
                    if (!value.isIntegralNumber() || !value.canConvertToLong()) {
                        throw mismatch(path, field, value);
                    }
                    g.add(index, value.longValue());
                }
                default -> throw mismatch(path, field, value);
            }
        } else if (field.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
            // <list> (LIST) { repeated group list { <element> } }: one repeated group per item, the item inside it
            if (!value.isArray()) {
                throw mismatch(path, field, value);
            }
            Group list = g.addGroup(index);
            GroupType repeated = field.asGroupType().getType(0).asGroupType();
            Type element = repeated.getType(0);
            int i = 0;
            for (JsonNode item : value) {
                Group slot = list.addGroup(0);
                if (!item.isNull()) {
                    add(slot, 0, element, item, path + "[" + i + "]");
                }
                i++;
            }
        } else {
            fill(g.addGroup(index), field.asGroupType(), value, path);
        }
    }

    private static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private static IllegalStateException mismatch(String path, Type field, JsonNode value) {
        String kind = field.isPrimitive() ? field.asPrimitiveType().getPrimitiveTypeName()
                + (field.getLogicalTypeAnnotation() == null ? "" : " " + field.getLogicalTypeAnnotation())
                : field.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation ? "list"
                : "struct";
        return new IllegalStateException("parquet row: " + (path.isEmpty() ? "the row" : path) + " is a JSON "
                + value.getNodeType().name().toLowerCase(Locale.ROOT) + ", not the schema's " + kind);
    }

    @Override
    public void commit() {
        try {
            closed = true;
            writer.close();
            try {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            committed = true;
        } catch (IOException e) {
            throw new UncheckedIOException(target + ": cannot write: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (committed) {
            return;
        }
        if (!closed) {
            closed = true;
            try {
                writer.close();
            } catch (IOException | RuntimeException ignored) {
                // the file is deleted next
            }
        }
        try {
            Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
            // best effort: a stray hidden file, never a partial target
        }
    }

    /** Parquet's GZIP codec on the JDK's zlib: what parquet-java's own would do through Hadoop's codec classes. */
    private static final class Gzip implements CompressionCodecFactory.BytesInputCompressor {

        static final CompressionCodecFactory FACTORY = new CompressionCodecFactory() {
            @Override
            public BytesInputCompressor getCompressor(CompressionCodecName codec) {
                if (codec != CompressionCodecName.GZIP) {
                    throw new IllegalArgumentException("only GZIP is set up, not " + codec);
                }
                return new Gzip();
            }

            @Override
            public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
                throw new UnsupportedOperationException("this factory writes only");
            }

            @Override
            public void release() {
            }
        };

        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE - 8, bytes.size() / 2 + 64));
            try (GZIPOutputStream gz = new GZIPOutputStream(out, 64 * 1024)) {
                bytes.writeAllTo(gz);
            }
            return BytesInput.from(out.toByteArray());
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.GZIP;
        }

        @Override
        public void release() {
        }
    }
}
