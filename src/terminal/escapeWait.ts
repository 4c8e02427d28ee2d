// Shared by the console's key splitter and the commands' hidden input; a module of its own, so a command that
// reads a hidden line does not load the splitter (and the text widths it brings).

/** How long a trailing ESC waits for the rest of a sequence before it is the Escape key. */
export const ESCAPE_WAIT_MS = 15;
