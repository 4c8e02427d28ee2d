// What was typed on a form that was left (esc, an unknown outcome checked in the key list): kept in memory
// for this console's target, so coming back resumes it. A new key's draft is per sub-account and dropped
// when the key is created; the transfer filter keeps the last one. No draft holds a secret.
import React, { createContext, useContext, type ReactNode } from 'react';
import type { FieldName } from '../api/validation';

export type NewKeyField = 'permissions' | 'other' | 'ip' | 'note';

export interface NewKeyDraft {
  checked: string[];
  other: string;
  ip: string;
  note: string;
  focus: NewKeyField;
}

export interface TransferFilterDraft {
  /** The fields as typed (`7d` stays a span before now), by field name. */
  values: Record<FieldName, string>;
  focus: number;
}

export interface DraftShelf<T> {
  get(key: string): T | undefined;
  /** Keeps the form as it is now; `undefined` (a form as it starts) keeps nothing. */
  keep(key: string, draft: T | undefined): void;
  drop(key: string): void;
}

export interface Drafts {
  /** By sub-account. */
  newKey: DraftShelf<NewKeyDraft>;
  /** One, under ''. */
  transferFilter: DraftShelf<TransferFilterDraft>;
}

export function isBlankNewKey(draft: NewKeyDraft): boolean {
  return draft.checked.length === 0 && draft.other.trim() === '' && draft.ip.trim() === '' && draft.note.trim() === '';
}

function shelf<T>(): DraftShelf<T> {
  const drafts = new Map<string, T>();
  return {
    get: (key) => drafts.get(key),
    keep: (key, draft) => {
      if (draft === undefined) drafts.delete(key);
      else drafts.set(key, draft);
    },
    drop: (key) => {
      drafts.delete(key);
    },
  };
}

// The forms hand over their state objects, which React never mutates: kept as they are.
export function createDrafts(): Drafts {
  return { newKey: shelf(), transferFilter: shelf() };
}

const DraftsContext = createContext<Drafts | undefined>(undefined);

export function DraftsProvider({ drafts, children }: { drafts: Drafts; children: ReactNode }) {
  return <DraftsContext.Provider value={drafts}>{children}</DraftsContext.Provider>;
}

export function useDrafts(): Drafts {
  const drafts = useContext(DraftsContext);
  if (!drafts) throw new Error('useDrafts outside DraftsProvider');
  return drafts;
}
