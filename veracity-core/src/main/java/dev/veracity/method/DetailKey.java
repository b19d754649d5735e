package dev.veracity.method;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The key of something a method reports about an answer beyond the kernel's fields (Reasoning Court's candidate
 * answers): a plug-in defines its own, with the value's type, and attaches values with
 * {@link MethodAnswer#withDetail}. Runs and {@code serve} write each detail under the key's name, bound with Jackson (a
 * record becomes an object of its components): in the result line's (and the {@code veracity} object's)
 * {@code details} object, or for the names in {@link Details#OWN_FIELDS} (the Court's {@code candidates}) in the line
 * itself; readers read it back with {@link #read} on that object.
 *
 * <pre>{@code
 * public static final DetailKey<List<Vote>> VOTES = DetailKey.listOf("votes", Vote.class);
 * MethodAnswer a = answer.withDetail(VOTES, votes);   // results line: "details": {"votes": [{...}, ...]}
 * List<Vote> back = VOTES.read(line.path("details")).orElse(List.of());
 * }</pre>
 *
 * @param <T> the value's type
 */
public final class DetailKey<T> {

    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final String name;
    private final JavaType type;

    private DetailKey(String name, JavaType type) {
        this.name = Capability.checkKey(name);
        this.type = type;
    }

    /** A detail of one value of the class (a record, a string, a number). */
    public static <T> DetailKey<T> of(String name, Class<T> type) {
        return new DetailKey<>(name, JSON.constructType(Objects.requireNonNull(type, "type")));
    }

    /** A detail that is a list of values of the class, written as a JSON array. */
    public static <E> DetailKey<List<E>> listOf(String name, Class<E> element) {
        return new DetailKey<>(name, JSON.getTypeFactory().constructCollectionType(List.class, element));
    }

    /** The field in the result line (and in serve's {@code veracity} field); stable, one per detail. */
    public String name() {
        return name;
    }

    /** The value as JSON. */
    public JsonNode write(T value) {
        return JSON.valueToTree(value);
    }

    /**
     * The value of this detail in a JSON object written with {@link #write} (a result line), or empty when the field
     * is absent or is not such a value (a file is untrusted input: never an exception).
     */
    public Optional<T> read(JsonNode object) {
        JsonNode v = object == null ? null : object.get(name);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(JSON.treeToValue(v, type));
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Checks that the value is of this detail's type (a raw type's value at least). */
    T check(Object value) {
        if (!type.getRawClass().isInstance(value)) {
            throw new IllegalArgumentException("detail " + name + " takes a " + type.getRawClass().getSimpleName()
                    + ", was a " + value.getClass().getSimpleName());
        }
        @SuppressWarnings("unchecked")
        T t = (T) value;
        return t;
    }

    /** Keys are equal by name: one field per name in a line. */
    @Override
    public boolean equals(Object o) {
        return o instanceof DetailKey<?> k && k.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
