package dev.veracity.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class EmbeddingsTest {

    @Test
    void vectorsAreDeterministicUnitLengthAndNearForTextsThatShareWords() throws Exception {
        try (SimServer sim = SimServer.start()) {
            JsonNode r = Http.ok(sim, "/embeddings", """
                    {"model": "sim", "input": ["The Eiffel Tower is in Paris", "Paris has the Eiffel Tower", "Bananas are yellow"]}""");
            assertThat(r.path("object").asText()).isEqualTo("list");
            assertThat(r.path("usage").path("prompt_tokens").asInt()).isPositive();
            float[] a = vector(r, 0);
            float[] b = vector(r, 1);
            float[] c = vector(r, 2);
            assertThat(a).hasSize(Embeddings.DIMENSIONS);
            assertThat(dot(a, a)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
            assertThat(dot(a, b)).isGreaterThan(0.6).isGreaterThan(dot(a, c) + 0.4);
            assertThat(vector(Http.ok(sim, "/embeddings", "{\"model\": \"sim\", \"input\": \"Bananas are yellow\"}"), 0))
                    .containsExactly(c);
            assertThat(sim.counters().requests(Endpoint.EMBEDDINGS)).isEqualTo(2);
        }
    }

    @Test
    void base64IsLittleEndianFloat32AndDimensionsAreHonoured() throws Exception {
        try (SimServer sim = SimServer.start()) {
            float[] floats = vector(Http.ok(sim, "/embeddings", "{\"model\": \"m\", \"input\": \"hello world\", \"dimensions\": 16}"), 0);
            JsonNode r = Http.ok(sim, "/embeddings",
                    "{\"model\": \"m\", \"input\": \"hello world\", \"dimensions\": 16, \"encoding_format\": \"base64\"}");
            ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(r.path("data").get(0).path("embedding").asText()))
                    .order(ByteOrder.LITTLE_ENDIAN);
            float[] decoded = new float[bytes.remaining() / 4];
            bytes.asFloatBuffer().get(decoded);
            assertThat(decoded).hasSize(16).containsExactly(floats);
        }
    }

    @Test
    void badRequestsGetOpenAiErrors() {
        try (SimServer sim = SimServer.start(SimConfig.builder().models(List.of("bge")).build())) {
            assertThat(Http.post(sim, "/embeddings", "{\"model\": \"other\", \"input\": \"x\"}").statusCode()).isEqualTo(404);
            assertThat(Http.post(sim, "/embeddings", "{\"model\": \"bge\"}").statusCode()).isEqualTo(400);
            assertThat(Http.post(sim, "/embeddings", "{\"model\": \"bge\", \"input\": [[1, 2]]}").body()).contains("token arrays");
            assertThat(Http.post(sim, "/embeddings", "{\"model\": \"bge\", \"input\": \"x\", \"encoding_format\": \"int8\"}")
                    .statusCode()).isEqualTo(400);
        }
    }

    @Test
    void faultsApplyToEmbeddingsToo() {
        try (SimServer sim = SimServer.start(SimConfig.builder().faults(FaultPlan.script(FaultKind.RATE_LIMIT, FaultKind.NONE)).build())) {
            assertThat(Http.post(sim, "/embeddings", "{\"model\": \"sim\", \"input\": \"x\"}").statusCode()).isEqualTo(429);
            assertThat(Http.post(sim, "/embeddings", "{\"model\": \"sim\", \"input\": \"x\"}").statusCode()).isEqualTo(200);
        }
    }

    private static float[] vector(JsonNode response, int i) {
        JsonNode e = response.path("data").get(i);
        assertThat(e.path("index").asInt()).isEqualTo(i);
        float[] v = new float[e.path("embedding").size()];
        for (int d = 0; d < v.length; d++) {
            v[d] = (float) e.path("embedding").get(d).asDouble();
        }
        return v;
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
