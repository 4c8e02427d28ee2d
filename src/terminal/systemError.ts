// A Node system error in words: "ENOSPC: no space left on device, write" says "no space left on device".

/** The words of a system error (its code when it has no message), or undefined for any other error. */
export function systemErrorWords(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (!(error instanceof Error) || typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return undefined;
  const words = (error.message.split('\n')[0] ?? '').replace(/^[A-Z][A-Z0-9_]*: /, '').replace(/, [a-z]+(?: '.*')?$/, '');
  return words === '' ? code : words;
}
