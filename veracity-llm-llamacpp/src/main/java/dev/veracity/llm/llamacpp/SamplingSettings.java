package dev.veracity.llm.llamacpp;

import de.kherud.llama.InferenceParameters;
import dev.veracity.llm.ErrorKind;
import dev.veracity.llm.LlmException;
import dev.veracity.llm.LlmRequest;
import java.util.Locale;
import java.util.Map;

/**
 * Maps a request's sampling settings onto llama.cpp's inference parameters for one sample.
 *
 * <p>Unset settings keep llama.cpp's defaults. Stop sequences are not given to llama.cpp: the backend matches them
 * itself (see {@link GenerationLoop}) so the returned text is exactly the prefix before the first stop string.
 * Token probabilities ({@code n_probs}) are never requested: in de.kherud:llama 4.2.0 the binding aborts the JVM
 * when it parses them.
 *
 * <p>Extras llama.cpp has a knob for are mapped: {@code repeat_penalty} (alias {@code repetition_penalty}),
 * {@code repeat_last_n}, {@code min_p}, {@code typical_p}, {@code frequency_penalty}, {@code presence_penalty},
 * {@code min_keep}, {@code top_k} (when the request sets no top-k), {@code ignore_eos}, {@code grammar} (a GBNF
 * grammar) and {@code logit_bias} (OpenAI's map of token id to bias). Other extras are provider-specific fields of
 * other servers and are ignored. Beware: llama.cpp ignores a grammar it cannot parse (it only prints the parse
 * error to stderr) and samples unconstrained; the binding gives no way to detect it.
 */
final class SamplingSettings {

    private SamplingSettings() {
    }

    /**
     * The parameters for one sample.
     *
     * @param prompt   the rendered prompt
     * @param request  the request
     * @param seed     llama.cpp's seed for this sample, or null for a random one
     * @param nPredict the token limit for this sample
     */
    static InferenceParameters forSample(String prompt, LlmRequest request, Integer seed, int nPredict) {
        InferenceParameters p = new InferenceParameters(prompt)
                .setNPredict(nPredict)
                // Reusing the previous call's KV cache changes the batch split and with it the float rounding, so
                // greedy and seeded outputs could differ between identical calls: always evaluate the whole prompt.
                .setCachePrompt(false);
        if (request.temperature() != null) {
            p.setTemperature(request.temperature().floatValue()); // 0 makes llama.cpp decode greedily
        }
        if (request.topP() != null) {
            p.setTopP(request.topP().floatValue());
        }
        if (request.topK() != null) {
            p.setTopK(request.topK());
        }
        if (seed != null) {
            p.setSeed(seed);
        }
        applyExtras(p, request);
        return p;
    }

    /**
     * The llama.cpp seed of a sample: the request's seed plus the absolute sample index, so samples of one request
     * differ and a sample is the same whether it was asked for alone or within a larger n. llama.cpp seeds are
     * unsigned 32-bit and 0xFFFFFFFF means "random", so the value is kept to 31 bits.
     */
    static Integer seedFor(Long requestSeed, int sampleIndex) {
        if (requestSeed == null) {
            return null;
        }
        return (int) ((requestSeed + sampleIndex) & 0x7FFF_FFFFL);
    }

    private static void applyExtras(InferenceParameters p, LlmRequest request) {
        for (Map.Entry<String, Object> e : request.extras().entrySet()) {
            String key = e.getKey().toLowerCase(Locale.ROOT);
            Object v = e.getValue();
            switch (key) {
                case "repeat_penalty", "repetition_penalty" -> p.setRepeatPenalty(number(key, v).floatValue());
                case "repeat_last_n" -> p.setRepeatLastN(number(key, v).intValue());
                case "min_p" -> p.setMinP(number(key, v).floatValue());
                case "typical_p" -> p.setTypicalP(number(key, v).floatValue());
                case "frequency_penalty" -> p.setFrequencyPenalty(number(key, v).floatValue());
                case "presence_penalty" -> p.setPresencePenalty(number(key, v).floatValue());
                case "min_keep" -> p.setMinKeep(number(key, v).intValue());
                case "top_k" -> {
                    if (request.topK() == null) {
                        p.setTopK(number(key, v).intValue());
                    }
                }
                case "ignore_eos" -> p.setIgnoreEos(bool(key, v));
                case "grammar" -> p.setGrammar(String.valueOf(v));
                case "logit_bias" -> p.setTokenIdBias(logitBias(v));
                default -> {
                    // A field of another provider (vLLM's best_of, OpenAI's user, ...): llama.cpp has no knob.
                }
            }
        }
    }

    /** OpenAI's {@code logit_bias}: token ids (as JSON object keys, so strings) to a bias added to the logit. */
    private static Map<Integer, Float> logitBias(Object v) {
        if (!(v instanceof Map<?, ?> map)) {
            throw new LlmException(ErrorKind.BAD_REQUEST, "extra 'logit_bias' must map token ids to numbers, was " + v);
        }
        Map<Integer, Float> bias = new java.util.LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            try {
                bias.put(Integer.parseInt(String.valueOf(e.getKey()).trim()),
                        number("logit_bias", e.getValue()).floatValue());
            } catch (NumberFormatException ex) {
                throw new LlmException(ErrorKind.BAD_REQUEST, "extra 'logit_bias' has a key that is not a token id: "
                        + e.getKey());
            }
        }
        return bias;
    }

    private static Number number(String key, Object v) {
        if (v instanceof Number n) {
            return n;
        }
        if (v instanceof String s) {
            try {
                return Double.parseDouble(s.trim());
            } catch (NumberFormatException ignored) {
                // reported below
            }
        }
        throw new LlmException(ErrorKind.BAD_REQUEST, "extra '" + key + "' must be a number, was " + v);
    }

    private static boolean bool(String key, Object v) {
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof String s && (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false"))) {
            return Boolean.parseBoolean(s);
        }
        throw new LlmException(ErrorKind.BAD_REQUEST, "extra '" + key + "' must be true or false, was " + v);
    }
}
