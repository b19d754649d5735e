package dev.veracity.server;

/**
 * Text a client sent, fit to quote in an error message or a log line: control characters (line breaks included,
 * which would forge log lines) become spaces, and long text is cut.
 */
final class ClientText {

    private ClientText() {
    }

    static String quote(String text, int max) {
        if (text == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(Math.min(text.length(), max + 3));
        for (int i = 0; i < text.length() && b.length() < max; i++) {
            char c = text.charAt(i);
            b.append(Character.isISOControl(c) ? ' ' : c);
        }
        if (text.length() > max) {
            b.append("...");
        }
        return b.toString();
    }

    static String quote(String text) {
        return quote(text, 80);
    }
}
