// Fuzz regression (cargo fuzz target frontend_structured, minimised input
// bytes 22 5c ff = `"\` + an invalid byte, which lossy UTF-8 turns into
// U+FFFD): a backslash followed by a non-ASCII character inside a string
// literal. The lexer skips two bytes after the backslash, lands inside the
// multi-byte character and panics slicing the text (lexer.rs, fn string):
// "start byte index N is not a char boundary".
// Expected: a diagnostic or an accepted string, never a panic.
extern void log_msg(string msg);
control C() { apply { log_msg("caf\é"); } }
