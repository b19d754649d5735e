package dev.veracity.llm.openai;

import dev.veracity.llm.LlmBackend;
import dev.veracity.llm.LlmBackendContractTest;
import dev.veracity.sim.Rule;
import dev.veracity.sim.SimConfig;
import dev.veracity.sim.SimServer;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The shared backend contract, against the simulator over real HTTP through the openai-java SDK. */
class OpenAiCompatibleBackendTest extends LlmBackendContractTest {

    private static SimServer sim;
    private static OpenAiCompatibleBackend backend;

    @BeforeAll
    static void start() {
        sim = SimServer.start(SimConfig.builder().rules(Rule.of("(?s).*", List.of(
                "Apples and pears grow in orchards; sample {{sample}} notes that both ripen in late summer and autumn.",
                "Pears are softer than apples, sample {{sample}} says, and both keep for months in a cool cellar.")))
                .build());
        backend = OpenAiCompatibleBackend.builder().baseUrl(sim.baseUrl()).model("sim-model").build();
    }

    @AfterAll
    static void stop() {
        backend.close();
        sim.close();
    }

    @Override
    protected LlmBackend backend() {
        return backend;
    }
}
