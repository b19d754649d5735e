package dev.veracity.eval.report;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * A rough size of what an object keeps reachable, walking its fields (our classes and libraries' by reflection, the
 * JDK's collections through their public API) and the classes met on the way: enough to tell a table of numbers
 * from a list of JSON trees, not a heap measurement. Static fields are not followed.
 */
final class RetainedSize {

    private final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Class<?>> classes = Collections.newSetFromMap(new IdentityHashMap<>());
    private long bytes;

    private RetainedSize() {
    }

    /** Walks {@code root}, not entering {@code leaves} (shared objects the caller allows, such as a small summary). */
    static RetainedSize of(Object root, Object... leaves) {
        RetainedSize s = new RetainedSize();
        for (Object l : leaves) {
            s.seen.add(l);
        }
        s.walk(root);
        return s;
    }

    long bytes() {
        return bytes;
    }

    /** Whether an instance of {@code type} (or a subtype) is reachable. */
    boolean reaches(Class<?> type) {
        return classes.stream().anyMatch(type::isAssignableFrom);
    }

    private void walk(Object root) {
        Deque<Object> todo = new ArrayDeque<>();
        todo.push(root);
        while (!todo.isEmpty()) {
            Object o = todo.pop();
            if (o == null || !seen.add(o)) {
                continue;
            }
            Class<?> c = o.getClass();
            classes.add(c);
            if (o instanceof String s) {
                bytes += 40 + 2L * s.length();
            } else if (o instanceof Number || o instanceof Boolean || o instanceof Character || o instanceof Enum<?>) {
                bytes += 16;
            } else if (o instanceof Path p) {
                bytes += 64 + 2L * p.toString().length();
            } else if (o instanceof BitSet b) {
                bytes += 32 + b.size() / 8;
            } else if (c.isArray()) {
                int n = Array.getLength(o);
                Class<?> e = c.getComponentType();
                bytes += 16 + (long) n * (e == long.class || e == double.class ? 8 : e == byte.class || e == boolean.class
                        ? 1 : e == short.class || e == char.class ? 2 : 4);
                if (!e.isPrimitive()) {
                    for (int i = 0; i < n; i++) {
                        todo.push(Array.get(o, i));
                    }
                }
            } else if (o instanceof Map<?, ?> m && isJdk(c)) {
                bytes += 48 + 40L * m.size();
                m.forEach((k, v) -> {
                    todo.push(k);
                    todo.push(v);
                });
            } else if (o instanceof Collection<?> col && isJdk(c)) {
                bytes += 32 + 8L * col.size();
                col.forEach(todo::push);
            } else if (isJdk(c)) {
                bytes += 16; // another JDK object: counted as a header, not entered
            } else {
                bytes += 16;
                for (Class<?> k = c; k != null && !isJdk(k); k = k.getSuperclass()) {
                    for (Field f : k.getDeclaredFields()) {
                        if (Modifier.isStatic(f.getModifiers())) {
                            continue;
                        }
                        bytes += f.getType().isPrimitive() ? 8 : 4;
                        if (!f.getType().isPrimitive()) {
                            f.setAccessible(true);
                            try {
                                Object v = f.get(o);
                                if (v != null) {
                                    todo.push(v);
                                }
                            } catch (IllegalAccessException e) {
                                throw new IllegalStateException(e);
                            }
                        }
                    }
                }
            }
        }
    }

    private static boolean isJdk(Class<?> c) {
        return c.getModule().isNamed() && c.getModule().getName().startsWith("java.");
    }
}
