package dev.veracity.server;

import dev.veracity.http.HttpProblem;
import dev.veracity.method.QaMethod;
import dev.veracity.methods.Methods;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The methods the server answers with, by {@code eval} name: every method of {@link Methods} and every composition
 * {@code METHOD+march[+abstain]}. Methods are stateless, so one instance per name serves every request; only names
 * that resolved are kept, so clients cannot grow the map.
 */
final class ServedMethods {

    private final Map<String, QaMethod> byName = new ConcurrentHashMap<>();

    /** The method of that name; 404 {@code model_not_found} in OpenAI's words for any other name. */
    QaMethod byName(String name) {
        QaMethod m = byName.get(name);
        if (m != null) {
            return m;
        }
        try {
            m = Methods.byName(name);
        } catch (IllegalArgumentException e) {
            throw notFound(name);
        }
        QaMethod before = byName.putIfAbsent(name, m);
        return before == null ? m : before;
    }

    static HttpProblem notFound(String name) {
        return new HttpProblem(404, "model_not_found", "The model `" + ClientText.quote(name) + "` does not exist"
                + " here: a model is a method (" + String.join(", ", Methods.names()) + "), METHOD+march or"
                + " METHOD+march+abstain to verify its answer, optionally @UPSTREAM_MODEL (GET /v1/models lists them)")
                .withParam("model");
    }

    /** Every servable name: the methods in registry order, then their compositions with MARCH. */
    List<QaMethod> listed() {
        List<QaMethod> out = new ArrayList<>();
        List<QaMethod> composed = new ArrayList<>();
        for (String name : Methods.names()) {
            out.add(byName(name));
            for (String suffix : List.of("+march", "+march+abstain")) {
                try {
                    composed.add(byName(name + suffix));
                } catch (HttpProblem e) {
                    // march itself (and anything that already verifies) does not compose
                }
            }
        }
        out.addAll(composed);
        return out;
    }
}
