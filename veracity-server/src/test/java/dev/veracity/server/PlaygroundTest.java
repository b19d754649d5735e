package dev.veracity.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.veracity.sim.SimConfig;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The playground's files over plain HTTP: their types, the Content-Security-Policy that keeps the page on its own
 * origin, no key needed for the files while the API still asks for one; and the script never turns text into markup.
 */
class PlaygroundTest {

    @Test
    void thePageItsScriptAndStyleComeWithThePolicyAndNeedNoKeyWhileTheApiDoes() throws Exception {
        ApiKeys keys = ApiKeys.load(null, "sk-playground-key-0123456789");
        try (Served s = Served.start(SimConfig.defaults(), x -> x.withKeys(keys), b -> b, Duration.ofSeconds(5))) {
            String base = s.server.baseUrl();
            Http.Reply page = Http.get(base + "/");
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.header("Content-Type")).isEqualTo("text/html; charset=utf-8");
            assertThat(page.body()).contains("<script src=\"/playground/app.js\" defer></script>")
                    .doesNotContain("http://", "https://", "<style", "style=", "onclick");
            assertThat(page.header("Content-Security-Policy")).isEqualTo("default-src 'none'; script-src 'self';"
                    + " style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none';"
                    + " frame-ancestors 'none'");
            assertThat(page.header("X-Content-Type-Options")).isEqualTo("nosniff");
            Http.Reply script = Http.get(base + "/playground/app.js");
            assertThat(script.status()).isEqualTo(200);
            assertThat(script.header("Content-Type")).isEqualTo("text/javascript; charset=utf-8");
            assertThat(script.header("Content-Security-Policy")).isEqualTo(page.header("Content-Security-Policy"));
            assertThat(Http.get(base + "/playground/style.css").header("Content-Type")).isEqualTo("text/css; charset=utf-8");
            // the API behind the page still needs the key
            assertThat(Http.get(base + "/v1/models").status()).isEqualTo(401);
            assertThat(Http.get(base + "/playground/other.js").status()).isEqualTo(404);
        }
    }

    @Test
    void theScriptWritesTextOnlyAndLoadsNothingFromOutside() throws IOException {
        String js;
        try (InputStream in = Playground.class.getResourceAsStream("playground/app.js")) {
            js = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        // documents and model output are untrusted: no API that parses a string as markup or code
        assertThat(js).doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                "new Function", "http://", "https://", "localStorage");
        assertThat(js).contains("sessionStorage");
    }
}
