package dev.jburn.reference;

/**
 * A kernel form's on/off switch by vector width: {@code -D<property>=true} takes the form with any vector width (to check
 * and time it there), {@code false} never, anything else (unset: {@code auto}) on the widths it was measured on.
 *
 * <pre>{@code
 * static final boolean ON = WidthSwitch.on("jburn.winograd4x4", L == 8 || L == 16);
 * }</pre>
 */
final class WidthSwitch {
    private WidthSwitch() {}

    /** The switch {@code property}, with {@code measuredWidth} deciding when it is unset or {@code auto}. */
    static boolean on(String property, boolean measuredWidth) {
        return switch (System.getProperty(property, "auto")) {
            case "true" -> true;
            case "false" -> false;
            default -> measuredWidth;
        };
    }
}
