package dev.veracity.examples.assistant;

import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.Result;
import dev.veracity.langchain4j.VeracityChatModel;
import dev.veracity.langchain4j.VeracityContentRetriever;
import dev.veracity.langchain4j.VeracityResponseMetadata;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * A LangChain4j assistant whose answers MARCH checks: the model answers from the index's top passages
 * ({@code standard-rag}), MARCH's Proposer turns each number of the answer into a question, blind Checkers answer the
 * questions from the passages, and the answer is replaced by an abstention when they disagree ({@code +march+abstain}).
 * <pre>
 * java -cp ... dev.veracity.examples.assistant.VerifiedAssistant INDEX_DIR BASE_URL MODEL QUESTION...
 * </pre>
 */
public final class VerifiedAssistant {

    /** What the application calls; AiServices implements it over the Veracity chat model. */
    public interface Assistant {
        Result<String> answer(String question);
    }

    private VerifiedAssistant() {
    }

    /**
     * The chat model: {@code method} over the OpenAI-compatible server at {@code baseUrl}, documents from
     * {@code documents}. It holds an HTTP client: close it when the application is done with it.
     */
    public static VeracityChatModel model(ContentRetriever documents, String baseUrl, String model, String method) {
        return VeracityChatModel.builder()
                .method(method)                      // any method, or METHOD+march[+abstain]
                .baseUrl(baseUrl).modelName(model)   // or .backend(anyLangChain4jChatModel), .backend(LlmBackend)
                .retriever(documents)                // the method's documents: the top passages for the question
                .build();
    }

    /** The assistant over {@code chat}. */
    public static Assistant create(VeracityChatModel chat) {
        return AiServices.builder(Assistant.class).chatModel(chat).build();
    }

    /** Asks one question and prints the answer with what the method found. */
    public static VeracityResponseMetadata ask(Assistant assistant, String question, PrintStream out) {
        Result<String> result = assistant.answer(question);
        VeracityResponseMetadata m = (VeracityResponseMetadata) result.finalResponse().metadata();
        out.println(result.content());
        out.println("method " + m.method() + ", verdict " + m.verdict().orElse("none") + ", abstained " + m.abstained()
                + ", " + m.calls() + " calls, " + m.tokenUsage().totalTokenCount() + " tokens, documents "
                + m.documentIds());
        m.claims().forEach(c -> out.println("  " + c.verdict() + ": " + c.question() + " -> " + c.claimedAnswer()
                + " (Checker: " + String.join(", ", c.checkerAnswers()) + ")"));
        return m;
    }

    public static void main(String[] args) {
        if (args.length < 4) {
            System.err.println("usage: VerifiedAssistant INDEX_DIR BASE_URL MODEL QUESTION...");
            System.exit(2);
        }
        String question = String.join(" ", java.util.Arrays.asList(args).subList(3, args.length));
        try (VeracityContentRetriever index = VeracityContentRetriever.builder().index(Path.of(args[0])).maxResults(3)
                .build();
             VeracityChatModel chat = model(index, args[1], args[2], "standard-rag+march+abstain")) {
            ask(create(chat), question, System.out);
        } catch (dev.langchain4j.exception.LangChain4jException e) { // bad input or the model down: the one-line reason
            System.err.println("error: " + e.getMessage());
            System.exit(e instanceof dev.langchain4j.exception.InvalidRequestException ? 2 : 1);
        }
    }
}
