package dev.veracity.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.veracity.http.JsonCall;
import dev.veracity.http.JsonReply;
import dev.veracity.method.Capability;
import dev.veracity.method.MethodSpec;
import dev.veracity.method.OptionSpec;
import dev.veracity.method.QaMethod;

/**
 * {@code GET /v1/models}: every method the server answers with, as OpenAI lists models ({@code id}, {@code object},
 * {@code created}, {@code owned_by}) plus what a client needs to choose one: the description, the paper and section,
 * whether it reads documents, and its options with their types and defaults (for {@code veracity_options}). The
 * upstream models a request may name after {@code @} are listed as {@code upstream_models}.
 * {@code GET /v1/models/{id}}: one of them, {@code method@upstream} included; 404 {@code model_not_found} otherwise.
 */
final class ModelsRoute {

    static final String PREFIX = "/v1/models/";

    private final ServedMethods methods;
    private final UpstreamClients upstream;
    private final long created;

    ModelsRoute(ServedMethods methods, UpstreamClients upstream, long created) {
        this.methods = methods;
        this.upstream = upstream;
        this.created = created;
    }

    JsonReply list(JsonCall call) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("object", "list");
        ArrayNode data = out.putArray("data");
        for (QaMethod m : methods.listed()) {
            data.add(model(m.name(), m));
        }
        ArrayNode models = out.putArray("upstream_models");
        upstream.models().forEach(models::add);
        return JsonReply.ok(out);
    }

    JsonReply one(JsonCall call) {
        ModelName name = ModelName.parse(call.path().substring(PREFIX.length()));
        QaMethod m = methods.byName(name.method());
        upstream.client(name.upstream()); // 404 for an upstream model not served
        return JsonReply.ok(model(name.requested(), m));
    }

    private ObjectNode model(String id, QaMethod m) {
        MethodSpec spec = m.spec();
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("id", id);
        o.put("object", "model");
        o.put("created", created);
        o.put("owned_by", "veracity");
        o.put("description", spec.description());
        o.put("paper", spec.paper());
        o.put("section", spec.section());
        o.put("needs_documents", m.needs(Capability.DOCUMENTS));
        ArrayNode needs = o.putArray("needs"); // every need it declares: documents, retriever, pages, model:proxy, ...
        spec.needs().forEach(n -> needs.add(n.key()));
        ArrayNode options = o.putArray("options");
        for (OptionSpec opt : spec.options()) {
            ObjectNode x = options.addObject();
            x.put("name", opt.name());
            x.put("type", opt.typeName());
            if (opt.defaultValue() == null) {
                x.putNull("default");
            } else {
                x.put("default", opt.defaultValue());
            }
            x.put("description", opt.description());
        }
        return o;
    }
}
