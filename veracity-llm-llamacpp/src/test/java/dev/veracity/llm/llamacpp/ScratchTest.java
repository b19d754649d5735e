package dev.veracity.llm.llamacpp;

import de.kherud.llama.*;
import java.nio.file.*;
import java.util.*;
import org.junit.jupiter.api.Test;

class ScratchTest {
    @Test
    void explore() throws Exception {
        Path dir = Files.createTempDirectory("gguf");
        Path f = TinyGguf.write(dir, 42);
        System.out.println("size " + Files.size(f));
        long t0 = System.nanoTime();
        ModelParameters mp = new ModelParameters().setModel(f.toString()).setCtxSize(512).setThreads(2).setGpuLayers(0);
        try (LlamaModel m = new LlamaModel(mp)) {
            System.out.println("load ms " + (System.nanoTime() - t0) / 1e6);
            int[] toks = m.encode("Write three sentences about apples and pears.");
            System.out.println("encode " + Arrays.toString(toks) + " -> '" + m.decode(toks) + "'");
            InferenceParameters ip = new InferenceParameters("").setMessages(null, List.of(new Pair<>("user", "Hello there")));
            System.out.println("params json " + ip);
            try { System.out.println("template: [" + m.applyTemplate(ip) + "]"); } catch (Throwable e) { System.out.println("applyTemplate failed " + e); }
            for (int rep = 0; rep < 2; rep++) {
                InferenceParameters p = new InferenceParameters("Apples and pears are").setTemperature(0f).setNPredict(40).setCachePrompt(false);
                StringBuilder sb = new StringBuilder();
                int n = 0;
                t0 = System.nanoTime();
                for (LlamaOutput o : m.generate(p)) { n++; sb.append("[").append(o.text).append("]"); }
                System.out.println("greedy outputs=" + n + " ms=" + (System.nanoTime() - t0) / 1e6 + " : " + sb);
            }
            InferenceParameters p = new InferenceParameters("Apples and pears are").setTemperature(1f).setSeed(5).setNPredict(40).setNProbs(3).setCachePrompt(false);
            int n = 0;
            for (LlamaOutput o : m.generate(p)) { n++; System.out.println("out [" + o.text + "] " + o.probabilities); }
            System.out.println("complete: " + m.complete(new InferenceParameters("Apples and pears are").setTemperature(0f).setNPredict(40)));
            System.out.println("complete stop: " + m.complete(new InferenceParameters("Apples and pears are").setTemperature(0f).setNPredict(40).setStopStrings("the")));
        }
        try (LlamaModel m = new LlamaModel(new ModelParameters().setModel("/nonexistent.gguf"))) {
        } catch (Throwable e) { System.out.println("missing: " + e.getClass() + " " + e.getMessage()); }
        Path bad = dir.resolve("bad.gguf");
        Files.write(bad, "not a gguf at all".getBytes());
        try (LlamaModel m = new LlamaModel(new ModelParameters().setModel(bad.toString()))) {
        } catch (Throwable e) { System.out.println("bad: " + e.getClass() + " " + e.getMessage()); }
    }
}
