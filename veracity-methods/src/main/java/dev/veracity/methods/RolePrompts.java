package dev.veracity.methods;

import dev.veracity.method.QaMethod;
import dev.veracity.method.RolePrompt;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The prompts a trainer can be given, by {@code METHOD[:ROLE]} ({@code march:solver}, {@code madam-rag:agent},
 * {@code standard-rag}). Read from each registered method's {@link QaMethod#rolePrompts()}: a method added to
 * {@link Methods} (TruthRL's, say) that lists its roles is selectable here with no other change. Without a role the
 * method's first is meant.
 */
public final class RolePrompts {

    /** A method and one of its roles. */
    public record Selected(QaMethod method, RolePrompt role) {

        /** {@code method:role}. */
        public String name() {
            return method.name() + ":" + role.role();
        }
    }

    private RolePrompts() {
    }

    /** Every {@code method:role} that can be selected, in the registry's order. */
    public static List<String> names() {
        List<String> out = new ArrayList<>();
        for (String m : Methods.names()) {
            Methods.byName(m).rolePrompts().forEach(r -> out.add(m + ":" + r.role()));
        }
        return out;
    }

    /**
     * The method and role named {@code METHOD[:ROLE]}; an unknown method, a method without prompts or an unknown role
     * is an IllegalArgumentException of one line that lists what can be selected.
     */
    public static Selected select(String methodRole) {
        String s = methodRole == null ? "" : methodRole.strip().toLowerCase(Locale.ROOT);
        int colon = s.indexOf(':');
        String method = colon < 0 ? s : s.substring(0, colon);
        String role = colon < 0 ? null : s.substring(colon + 1);
        String known = "known: " + String.join(", ", names());
        if (!Methods.names().contains(method)) {
            throw new IllegalArgumentException("unknown method '" + method + "' for a prompt; " + known);
        }
        QaMethod m = Methods.byName(method);
        List<RolePrompt> roles = m.rolePrompts();
        if (roles.isEmpty()) {
            // e.g. the MADAM baselines: each of their calls reads earlier model output
            throw new IllegalArgumentException("method " + method + " exposes no role prompt for training data; " + known);
        }
        if (role == null) {
            return new Selected(m, roles.getFirst());
        }
        for (RolePrompt r : roles) {
            if (r.role().equals(role)) {
                return new Selected(m, r);
            }
        }
        throw new IllegalArgumentException("method " + method + " has no role '" + role + "' with a prompt (its roles: "
                + String.join(", ", roles.stream().map(RolePrompt::role).toList()) + "); " + known);
    }
}
