package dev.veracity.methods.march;

import dev.veracity.qa.AnswerNormalizer;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OUR EXTENSION beyond the paper ({@code claims=typed}, off by default): claims that are not numbers. Each answer
 * is typed as a number, a yes/no, a date or a name/text, and two answers match only when they have the same type
 * and value: numbers as {@link StrictNumericMatch}; yes/no by polarity; dates at the precision both give ("2021"
 * vs "2021-03-04" compares the year; a day against a different day is a mismatch); text after SQuAD normalisation
 * (lower case, no punctuation or articles). "Cannot answer" never matches.
 */
final class TypedClaimMatch implements AnswerMatcher {

    private static final Pattern YEAR = Pattern.compile("(\\d{4})");
    private static final Pattern YEAR_MONTH = Pattern.compile("(\\d{4})-(\\d{1,2})");
    private static final List<DateTimeFormatter> DAYS = List.of(
            DateTimeFormatter.ISO_LOCAL_DATE,
            formatter("d MMMM uuuu"), formatter("MMMM d, uuuu"), formatter("MMMM d uuuu"), formatter("d MMM uuuu"),
            formatter("MMM d, uuuu"));
    private static final List<DateTimeFormatter> MONTHS = List.of(formatter("MMMM uuuu"), formatter("MMM uuuu"));

    private final StrictNumericMatch numbers;

    TypedClaimMatch(double relativeTolerance) {
        this.numbers = new StrictNumericMatch(relativeTolerance);
    }

    private static DateTimeFormatter formatter(String pattern) {
        return new DateTimeFormatterBuilder().parseCaseInsensitive().appendPattern(pattern).toFormatter(Locale.ENGLISH);
    }

    @Override
    public boolean matches(String claimed, String checked) {
        if (claimed == null || checked == null || claimed.isBlank() || CheckerAnswer.isCannotAnswer(checked)) {
            return false;
        }
        Optional<Boolean> ya = yesNo(claimed);
        Optional<Boolean> yb = yesNo(checked);
        if (ya.isPresent() || yb.isPresent()) {
            return ya.equals(yb);
        }
        Optional<int[]> da = date(claimed);
        Optional<int[]> db = date(checked);
        if (da.isPresent() && db.isPresent() && (da.get()[3] > 1 || db.get()[3] > 1)) {
            int precision = Math.min(da.get()[3], db.get()[3]);
            for (int i = 0; i < precision; i++) {
                if (da.get()[i] != db.get()[i]) {
                    return false;
                }
            }
            return true;
        }
        OptionalDouble na = NumberParser.parse(claimed);
        OptionalDouble nb = NumberParser.parse(checked);
        if (na.isPresent() || nb.isPresent()) {
            return numbers.matches(claimed, checked);
        }
        String a = AnswerNormalizer.squad(claimed);
        return !a.isEmpty() && a.equals(AnswerNormalizer.squad(checked));
    }

    static Optional<Boolean> yesNo(String s) {
        String t = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z ]", "").strip();
        return switch (t) {
            case "yes", "true", "correct" -> Optional.of(true);
            case "no", "false", "incorrect" -> Optional.of(false);
            default -> Optional.empty();
        };
    }

    /** {year, month, day, precision 1..3}. */
    static Optional<int[]> date(String s) {
        String t = s.strip().replaceAll("(?<=\\d)(st|nd|rd|th)\\b", "").replaceAll("\\.$", "");
        for (DateTimeFormatter f : DAYS) {
            try {
                LocalDate d = LocalDate.parse(t, f);
                return Optional.of(new int[] {d.getYear(), d.getMonthValue(), d.getDayOfMonth(), 3});
            } catch (RuntimeException ignored) {
                // next format
            }
        }
        for (DateTimeFormatter f : MONTHS) {
            try {
                java.time.YearMonth ym = java.time.YearMonth.parse(t, f);
                return Optional.of(new int[] {ym.getYear(), ym.getMonthValue(), 0, 2});
            } catch (RuntimeException ignored) {
                // next format
            }
        }
        Matcher ym = YEAR_MONTH.matcher(t);
        if (ym.matches()) {
            int month = Integer.parseInt(ym.group(2));
            if (month >= 1 && month <= 12) {
                return Optional.of(new int[] {Integer.parseInt(ym.group(1)), month, 0, 2});
            }
        }
        Matcher y = YEAR.matcher(t);
        if (y.matches()) {
            return Optional.of(new int[] {Integer.parseInt(y.group(1)), 0, 0, 1});
        }
        return Optional.empty();
    }
}
