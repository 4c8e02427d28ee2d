// What the bin (src/startup/bin.ts) gives the scripts it runs: `__bcHost`, a parameter of the function the build
// wraps each script in. From the sources (tests) there is no host, and nothing here is needed.

export interface StartupHost {
  /** What a script hands back to the bin (the undici script: its module). */
  exports: Record<string, unknown>;
  /** import() of what is not in the script: keytar from node_modules, undici from its own cached script. */
  import(specifier: string): Promise<unknown>;
  /** The console's first frame is drawn: a code cache this start could not use is written soon after. */
  drawn(): void;
}

declare const __bcHost: StartupHost | undefined;

/** The bin's host when running from the build, undefined from the sources. */
export function startupHost(): StartupHost | undefined {
  return typeof __bcHost === 'undefined' ? undefined : __bcHost;
}
