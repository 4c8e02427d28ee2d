// Words for a POSIX shell, in the commands the program suggests or prints for a shell to run: a value from
// outside (a sub-account name a service listed) is never read by the shell as syntax.

/** Single-quoted, a quote inside written '\'' (nothing in it is expanded). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** As it is when the shell reads it as itself (letters, digits and `._-@%+=:,/`), else shellQuote(text). */
export function shellWord(text: string): string {
  return /^[\w.@%+=:,/-]+$/.test(text) ? text : shellQuote(text);
}
