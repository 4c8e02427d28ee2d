// What was typed on a new-key form that was left before the key was created (esc, ctrl+t, an unknown outcome
// checked in the key list): kept per sub-account for this console's target, in memory only, so `n` resumes it.
// A draft holds no secret (permissions, IPs, a note); a created key drops it.
import React, { createContext, useContext, type ReactNode } from 'react';

export type NewKeyField = 'permissions' | 'other' | 'ip' | 'note';

export interface NewKeyDraft {
  checked: string[];
  other: string;
  ip: string;
  note: string;
  focus: NewKeyField;
}

export interface NewKeyDrafts {
  get(subAccount: string): NewKeyDraft | undefined;
  /** Keeps the form as it is now; a form with nothing chosen or typed keeps nothing. */
  keep(subAccount: string, draft: NewKeyDraft): void;
  drop(subAccount: string): void;
}

export function isBlankDraft(draft: NewKeyDraft): boolean {
  return draft.checked.length === 0 && draft.other.trim() === '' && draft.ip.trim() === '' && draft.note.trim() === '';
}

export function createNewKeyDrafts(): NewKeyDrafts {
  const drafts = new Map<string, NewKeyDraft>();
  return {
    get: (subAccount) => drafts.get(subAccount),
    keep: (subAccount, draft) => {
      if (isBlankDraft(draft)) drafts.delete(subAccount);
      else drafts.set(subAccount, { ...draft, checked: [...draft.checked] });
    },
    drop: (subAccount) => {
      drafts.delete(subAccount);
    },
  };
}

const DraftsContext = createContext<NewKeyDrafts | undefined>(undefined);

export function NewKeyDraftsProvider({ drafts, children }: { drafts: NewKeyDrafts; children: ReactNode }) {
  return <DraftsContext.Provider value={drafts}>{children}</DraftsContext.Provider>;
}

export function useNewKeyDrafts(): NewKeyDrafts {
  const drafts = useContext(DraftsContext);
  if (!drafts) throw new Error('useNewKeyDrafts outside NewKeyDraftsProvider');
  return drafts;
}
