package dev.veracity.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.veracity.llm.cache.CacheMode;
import dev.veracity.llm.client.ConcurrencyLimit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VeracityConfigTest {

    @TempDir
    Path dir;

    @Test
    void flagsBeatEnvironmentWhichBeatsTheFile() throws Exception {
        Path file = dir.resolve("c.properties");
        Files.writeString(file, "llm-base-url=http://file/v1\nmodel=file-model\nconcurrency=3\napi-key=file-key-123\n");
        Map<String, String> env = Map.of("VERACITY_MODEL", "env-model", "VERACITY_CONCURRENCY", "5");
        Map<String, String> flags = new HashMap<>();
        flags.put("concurrency", "7");
        flags.put("cache", null);

        VeracityConfig c = VeracityConfig.resolve(env, file, true, flags);

        assertThat(c.llmBaseUrl()).isEqualTo("http://file/v1");
        assertThat(c.model()).isEqualTo("env-model");
        assertThat(c.concurrency()).isEqualTo(ConcurrencyLimit.fixed(7));
        assertThat(c.cacheMode()).isEqualTo(CacheMode.READ_WRITE);
        assertThat(c.apiKey()).hasValueSatisfying(k -> assertThat(k.reveal()).isEqualTo("file-key-123"));
    }

    @Test
    void theApiKeyComesFromVeracityThenOpenAiVariables() {
        VeracityConfig both = VeracityConfig.resolve(Map.of("VERACITY_API_KEY", "v-key-000", "OPENAI_API_KEY", "o-key-000"),
                null, false, Map.of());
        assertThat(both.apiKey().orElseThrow().reveal()).isEqualTo("v-key-000");
        VeracityConfig openai = VeracityConfig.resolve(Map.of("OPENAI_API_KEY", "o-key-000"), null, false, Map.of());
        assertThat(openai.apiKey().orElseThrow().reveal()).isEqualTo("o-key-000");
    }

    @Test
    void theKeyNeverShowsInToStringOrRedactedText() {
        VeracityConfig c = VeracityConfig.resolve(Map.of("VERACITY_API_KEY", "super-secret-key-42"), null, false, Map.of());
        assertThat(c.toString()).doesNotContain("super-secret-key-42").contains("redacted");
        assertThat(Secrets.redact("Authorization: Bearer super-secret-key-42")).doesNotContain("super-secret-key-42");
    }

    @Test
    void badValuesGiveClearErrors() throws Exception {
        assertThatThrownBy(() -> VeracityConfig.resolve(Map.of(), null, false, Map.of("concurrency", "zero")))
                .hasMessageContaining("concurrency").hasMessageContaining("positive integer");
        assertThatThrownBy(() -> VeracityConfig.resolve(Map.of(), null, false, Map.of("cache", "sometimes")))
                .hasMessageContaining("off, read-only or read-write");
        assertThatThrownBy(() -> VeracityConfig.resolve(Map.of(), dir.resolve("missing.properties"), true, Map.of()))
                .hasMessageContaining("missing.properties");
        Path file = dir.resolve("bad.properties");
        Files.writeString(file, "modle=x\n");
        assertThatThrownBy(() -> VeracityConfig.resolve(Map.of(), file, true, Map.of()))
                .hasMessageContaining("unknown setting 'modle'");
    }

    @Test
    void replayingUnparseableCacheEntriesIsOffUnlessAFlagTheEnvironmentOrTheFileSaysSo() throws Exception {
        assertThat(VeracityConfig.resolve(Map.of(), null, false, Map.of()).cacheReplayUnparseable()).isFalse();
        Path file = dir.resolve("c.properties");
        Files.writeString(file, "cache-replay-unparseable=true\n");
        assertThat(VeracityConfig.resolve(Map.of(), file, true, Map.of()).cacheReplayUnparseable()).isTrue();
        assertThat(VeracityConfig.resolve(Map.of("VERACITY_CACHE_REPLAY_UNPARSEABLE", "false"), file, true, Map.of())
                .cacheReplayUnparseable()).isFalse();
        assertThat(VeracityConfig.resolve(Map.of("VERACITY_CACHE_REPLAY_UNPARSEABLE", "false"), file, true,
                Map.of("cache-replay-unparseable", "true")).cacheReplayUnparseable()).isTrue();
        assertThatThrownBy(() -> VeracityConfig.resolve(Map.of(), null, false,
                Map.of("cache-replay-unparseable", "maybe"))).hasMessageContaining("true or false");
    }

    @Test
    void aMissingDefaultFileIsFine() {
        VeracityConfig c = VeracityConfig.resolve(Map.of(), dir.resolve("nope.properties"), false, Map.of());
        assertThat(c.concurrency()).isEqualTo(ConcurrencyLimit.fixed(16));
    }

    @Test
    void concurrencyAutoIsReadFromAFlagTheEnvironmentOrTheFileAndACommandMayDefaultToIt() throws Exception {
        assertThat(VeracityConfig.resolve(Map.of(), null, false, Map.of("concurrency", "auto")).concurrency())
                .isEqualTo(ConcurrencyLimit.AUTO);
        assertThat(VeracityConfig.resolve(Map.of("VERACITY_CONCURRENCY", "Auto"), null, false, Map.of()).concurrency())
                .isEqualTo(ConcurrencyLimit.AUTO);
        Path file = dir.resolve("auto.properties");
        Files.writeString(file, "concurrency=auto\n");
        assertThat(VeracityConfig.resolve(Map.of(), file, true, Map.of()).concurrency()).isEqualTo(ConcurrencyLimit.AUTO);
        // a command's default (eval: auto) gives way to any setting the user made
        Map<String, String> evalDefaults = Map.of("concurrency", "auto");
        assertThat(VeracityConfig.resolve(Map.of(), null, false, Map.of(), evalDefaults).concurrency())
                .isEqualTo(ConcurrencyLimit.AUTO);
        assertThat(VeracityConfig.resolve(Map.of("VERACITY_CONCURRENCY", "8"), null, false, Map.of(), evalDefaults)
                .concurrency()).isEqualTo(ConcurrencyLimit.fixed(8));
        Files.writeString(file, "concurrency=12\n");
        assertThat(VeracityConfig.resolve(Map.of(), file, true, Map.of(), evalDefaults).concurrency())
                .isEqualTo(ConcurrencyLimit.fixed(12));
        assertThat(VeracityConfig.resolve(Map.of(), null, false, Map.of()).toString()).contains("concurrency=16");
        assertThat(VeracityConfig.resolve(Map.of(), null, false, Map.of(), evalDefaults).toString())
                .contains("concurrency=auto");
    }

    @Test
    void aBadConcurrencySaysWhatItTakesInOneLine() {
        for (String bad : new String[] {"zero", "0", "-1", "automatic"}) {
            assertThatThrownBy(() -> VeracityConfig.resolve(Map.of(), null, false, Map.of("concurrency", bad)))
                    .hasMessage("setting 'concurrency' must be a positive integer or auto, was '" + bad + "'");
        }
        assertThatThrownBy(() -> VeracityConfig.resolve(Map.of("VERACITY_CONCURRENCY", "lots"), null, false, Map.of()))
                .hasMessage("setting 'concurrency' must be a positive integer or auto, was 'lots'");
    }

    @Test
    void severalServersAreCommaSeparatedEachCheckedAndNamedOnce() {
        VeracityConfig c = VeracityConfig.resolve(Map.of("VERACITY_LLM_BASE_URL", " http://a:8000/v1 , https://b/v1"),
                null, false, Map.of());
        assertThat(c.llmBaseUrl()).isEqualTo("http://a:8000/v1,https://b/v1");
        assertThat(c.llmBaseUrls()).containsExactly("http://a:8000/v1", "https://b/v1");
        VeracityConfig one = VeracityConfig.resolve(Map.of(), null, false, Map.of("llm-base-url", " http://a/v1 "));
        assertThat(one.llmBaseUrls()).containsExactly("http://a/v1");

        assertThatThrownBy(() -> VeracityConfig.resolve(Map.of(), null, false,
                Map.of("llm-base-url", "http://a/v1,,http://b/v1")))
                .hasMessage("setting 'llm-base-url' lists '', not an http(s) URL with a host; list servers"
                        + " comma-separated, e.g. http://a:8000/v1,http://b:8000/v1");
        assertThatThrownBy(() -> VeracityConfig.resolve(Map.of(), null, false,
                Map.of("llm-base-url", "http://a/v1,ftp://b")))
                .hasMessageContaining("lists 'ftp://b', not an http(s) URL");
        assertThatThrownBy(() -> VeracityConfig.resolve(Map.of(), null, false,
                Map.of("llm-base-url", "http://a/v1, http://a/v1")))
                .hasMessage("setting 'llm-base-url' lists http://a/v1 twice; name each server once");
        // one bad URL: the message it always had
        assertThatThrownBy(() -> VeracityConfig.resolve(Map.of(), null, false, Map.of("llm-base-url", "localhost")))
                .hasMessage("setting 'llm-base-url' must be an http(s) URL with a host, e.g. http://127.0.0.1:8000/v1;"
                        + " was 'localhost'");
    }
}
