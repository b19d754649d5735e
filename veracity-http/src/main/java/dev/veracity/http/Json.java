package dev.veracity.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The servers' JSON: strict reading (one value per body, a key at most once), plain writing. */
final class Json {

    /** A duplicate key would silently win and a second value would be ignored: both are refused. */
    static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private Json() {
    }
}
