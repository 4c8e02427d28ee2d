// Colours in one place, so NO_COLOR can switch every one of them off.
export interface Theme {
  color: boolean;
  accent: string | undefined;
  muted: string | undefined;
  error: string | undefined;
  ok: string | undefined;
  warn: string | undefined;
  demoBadge: { color: string | undefined; backgroundColor: string | undefined };
  liveBadge: { color: string | undefined; backgroundColor: string | undefined };
  readOnlyBadge: { color: string | undefined; backgroundColor: string | undefined };
}

export function makeTheme(noColor: boolean): Theme {
  if (noColor) {
    const none = { color: undefined, backgroundColor: undefined };
    return {
      color: false,
      accent: undefined,
      muted: undefined,
      error: undefined,
      ok: undefined,
      warn: undefined,
      demoBadge: none,
      liveBadge: none,
      readOnlyBadge: none,
    };
  }
  return {
    color: true,
    accent: 'cyan',
    muted: 'gray',
    error: 'red',
    ok: 'green',
    warn: 'yellow',
    demoBadge: { color: 'black', backgroundColor: 'yellow' },
    liveBadge: { color: 'white', backgroundColor: 'red' },
    readOnlyBadge: { color: 'black', backgroundColor: 'green' },
  };
}
