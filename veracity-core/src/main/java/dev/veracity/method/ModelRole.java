package dev.veracity.method;

import dev.veracity.llm.client.LlmClient;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A model of its own that a method's agents run on beside the run's LLM (C-3PO's small {@code proxy}), declared as a
 * need. A front end binds the roles it has a model for (the {@code --proxy-*} flags bind {@code proxy}); the method
 * reads its role's model with {@link MethodContext#model(ModelRole)}, which is the LLM when the role is unbound. Two
 * roles are the same role when their names are.
 *
 * @param name        the role's name (the front end's binding), e.g. {@code proxy}
 * @param description one line: what the model does and what it is when unbound
 */
public record ModelRole(String name, String description) implements Capability {

    public ModelRole {
        Capability.checkKey(name);
        description = Objects.requireNonNullElse(description, "");
    }

    @Override
    public String key() {
        return "model:" + name;
    }

    /**
     * The models for the roles a method declares, from the ones a front end has by role name; a role without one is
     * left out (the method then runs it on the LLM), and a model for a role the method does not declare is not given.
     */
    public static Map<ModelRole, LlmClient> bind(MethodSpec method, Map<String, LlmClient> byName) {
        Map<ModelRole, LlmClient> out = new LinkedHashMap<>();
        for (Capability c : method.needs()) {
            if (c instanceof ModelRole r && byName.containsKey(r.name())) {
                out.put(r, byName.get(r.name()));
            }
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ModelRole r && r.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }
}
