// What the config folder remembers of a base URL for the next client, and keeps of this one: the clock offset
// last measured (a 700003 need not be met again), the signing rule a create was last accepted with (under
// 'auto'), and a ban in force (honoured before anything is sent). The commands and the console use the same.
import type { ClientConfig } from '../api/contract';
import type { PostSignature, PostSignatureRule } from '../api/signing';
import { loadBan, saveBan } from './bans';
import { loadClockOffset, saveClockOffset } from './clockOffsets';
import { loadPostSignature, savePostSignature } from './postSignatures';

export interface Learned {
  /** The client's start from what was remembered, and the hooks that keep what it learns. */
  config: Pick<ClientConfig, 'initialClockOffsetMs' | 'rememberedPostSignature' | 'onPostSignature' | 'banEndsAt' | 'onBan'>;
  /** The clock offset remembered (0 when none). */
  offsetBefore: number;
  /** Keeps the clock offset the client ends with (when it changed), after the writes under way; never throws. */
  keep(offsetAfter: number): Promise<void>;
}

/** `track` sees every write (the console waits for them as it exits). */
export async function learnedFor(
  folder: string,
  baseUrl: string,
  postSignature: PostSignature | undefined,
  track: <T>(write: Promise<T>) => Promise<T> = (write) => write,
): Promise<Learned> {
  const [offset, rule, banEndsAt] = await Promise.all([
    loadClockOffset(folder, baseUrl),
    postSignature === undefined || postSignature === 'auto' ? loadPostSignature(folder, baseUrl) : Promise.resolve(undefined),
    loadBan(folder, baseUrl),
  ]);
  let known: PostSignatureRule | undefined = rule;
  let writes: Promise<unknown> = Promise.resolve();
  const write = (next: () => Promise<unknown>): void => {
    writes = writes.then(() => track(next()).catch(() => undefined));
  };
  return {
    config: {
      ...(offset !== undefined ? { initialClockOffsetMs: offset } : {}),
      ...(rule !== undefined ? { rememberedPostSignature: rule } : {}),
      onPostSignature: (accepted) => {
        if (accepted === known) return;
        known = accepted;
        write(() => savePostSignature(folder, baseUrl, accepted));
      },
      ...(banEndsAt !== undefined ? { banEndsAt } : {}),
      onBan: (endsAt) => write(() => saveBan(folder, baseUrl, endsAt)),
    },
    offsetBefore: offset ?? 0,
    async keep(offsetAfter) {
      if (Math.round(offsetAfter) !== Math.round(offset ?? 0)) write(() => saveClockOffset(folder, baseUrl, offsetAfter));
      await writes;
    },
  };
}
