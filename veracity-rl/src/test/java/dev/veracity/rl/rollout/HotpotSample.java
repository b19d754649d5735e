package dev.veracity.rl.rollout;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Synthetic questions in HotpotQA's distractor format (ten-paragraph contexts cut to four here), made so the
 * simulator's reader routes them to all three strategies: three-word questions (direct), mid-length ones (single
 * pass) and long compositional ones (planning). Each answer is in one paragraph.
 */
public final class HotpotSample {

    private static final String[] CITIES = {"Lisbon", "Oslo", "Quito", "Hanoi", "Perth", "Dakar", "Lima", "Riga"};

    private HotpotSample() {
    }

    public static Path write(Path file, int n) throws IOException {
        ObjectMapper json = new ObjectMapper();
        ArrayNode all = json.createArrayNode();
        for (int i = 0; i < n; i++) {
            String company = "Zentrix" + i;
            String founder = "Mara Velden" + i;
            String city = CITIES[i % CITIES.length];
            String question;
            String answer;
            switch (i % 3) {
                case 0 -> {
                    question = "Who founded " + company + "?";
                    answer = founder;
                }
                case 1 -> {
                    question = "In which city is the company " + company + " headquartered today?";
                    answer = city;
                }
                default -> {
                    question = "In which city is the company founded by the engineer " + founder
                            + " in the year after the war headquartered?";
                    answer = city;
                }
            }
            ObjectNode q = all.addObject();
            q.put("_id", "s" + i);
            q.put("question", question);
            q.put("answer", answer);
            q.put("type", "bridge");
            q.put("level", "medium");
            q.putArray("supporting_facts").addArray().add(company).add(0);
            ArrayNode ctx = q.putArray("context");
            paragraph(ctx, company, company + " is a company headquartered in " + city + ".",
                    "It was founded by the engineer " + founder + " in 1951.");
            paragraph(ctx, founder, founder + " is an engineer.", "She founded " + company + " after the war.");
            paragraph(ctx, "Harbour " + i, "The harbour of the town is old.", "Fishing boats use it every morning.");
            paragraph(ctx, "River " + i, "The river floods in spring.", "Farmers plant rice along it.");
        }
        json.writeValue(file.toFile(), all);
        return file;
    }

    private static void paragraph(ArrayNode ctx, String title, String... sentences) {
        ArrayNode p = ctx.addArray();
        p.add(title);
        ArrayNode s = p.addArray();
        for (String x : sentences) {
            s.add(x);
        }
    }
}
