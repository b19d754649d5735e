package dev.veracity.sim;

/**
 * An error answered with an OpenAI-style body: {@code {"error":{"message","type","param","code"}}}.
 * Thrown inside the handler to short-circuit a request; carries no stack trace (it is control flow).
 */
final class ApiError extends RuntimeException {
    final int status;
    final String type;
    final String param;
    final String code;

    ApiError(int status, String message, String type, String param, String code) {
        super(message, null, false, false);
        this.status = status;
        this.type = type;
        this.param = param;
        this.code = code;
    }

    static ApiError invalid(String message, String param) {
        return new ApiError(400, message, "invalid_request_error", param, null);
    }

    static ApiError invalid(String message, String param, String code) {
        return new ApiError(400, message, "invalid_request_error", param, code);
    }

    /** 404 as OpenAI answers a model it does not serve. */
    static ApiError modelNotFound(String model) {
        return new ApiError(404, "The model `" + model + "` does not exist.", "invalid_request_error", "model", "model_not_found");
    }

    static ApiError missing(String param) {
        return invalid("Missing required parameter: '" + param + "'.", param, "missing_required_parameter");
    }
}
