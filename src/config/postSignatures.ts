// The POST signature rule (query only, or query + body) each base URL last accepted for a create, so that the
// next run under 'auto' sends that rule first instead of meeting a 700002 again. Not secret: a small JSON file
// in the config folder, written whole or not at all. A wrong entry heals itself: the service refuses it
// (700002), the client resends once by the other rule and the rule that worked replaces it.
import { join } from 'node:path';
import * as v from 'valibot';
import type { PostSignatureRule } from '../api/signing';
import { readFileIfExists, writeFileAtomic } from './atomicFile';

export const POST_SIGNATURES_FILE = 'post-signatures.json';
/** Base URLs remembered; the least recently confirmed are dropped first. */
export const MAX_POST_SIGNATURES = 32;

const Entry = v.object({
  rule: v.picklist(['query', 'body']),
  acceptedAt: v.pipe(v.number(), v.integer(), v.minValue(0)),
});
type Entry = v.InferOutput<typeof Entry>;

export function postSignaturesPath(folder: string): string {
  return join(folder, POST_SIGNATURES_FILE);
}

/** Every readable entry; a missing, unreadable or damaged file (or entry) counts as none. Never throws. */
async function readAll(folder: string): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  let raw: unknown;
  try {
    const text = await readFileIfExists(postSignaturesPath(folder));
    if (text === undefined) return entries;
    raw = JSON.parse(text);
  } catch {
    return entries;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return entries;
  for (const [baseUrl, value] of Object.entries(raw as Record<string, unknown>)) {
    const parsed = v.safeParse(Entry, value);
    if (parsed.success) entries.set(baseUrl, parsed.output);
  }
  return entries;
}

/** The rule this base URL last accepted, or undefined. Never throws. */
export async function loadPostSignature(folder: string, baseUrl: string): Promise<PostSignatureRule | undefined> {
  return (await readAll(folder)).get(baseUrl)?.rule;
}

/**
 * Remembers the rule for this base URL; keeps the file to MAX_POST_SIGNATURES entries. Throws what the write
 * throws; callers treat it as best effort.
 */
export async function savePostSignature(folder: string, baseUrl: string, rule: PostSignatureRule, now: number = Date.now()): Promise<void> {
  const entries = await readAll(folder);
  entries.set(baseUrl, { rule, acceptedAt: Math.max(0, Math.round(now)) });
  const kept = [...entries.entries()].sort(([, a], [, b]) => b.acceptedAt - a.acceptedAt).slice(0, MAX_POST_SIGNATURES);
  await writeFileAtomic(postSignaturesPath(folder), `${JSON.stringify(Object.fromEntries(kept), null, 2)}\n`);
}
