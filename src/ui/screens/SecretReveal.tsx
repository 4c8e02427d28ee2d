// The one-time secret: masked until revealed, copyable, and gone from state and screen once the operator
// confirms it is stored (DESIGN §5). It is never written anywhere else.
import React, { useState } from 'react';
import { Box, Text } from 'ink';
import type { CreatedKey } from '../../api/types';
import { FieldList } from '../components/FieldList';
import { commandFor } from '../keymap';
import { useFlash } from '../hooks/useFlash';
import { useScreenKeys } from '../hooks/useKeys';
import { useNavigate } from '../navigation';
import { useScreenFrame, useScreenMode } from '../screenFrame';
import { useServices } from '../services';
import { localTime } from '../text';

export function SecretReveal({ created }: { created: CreatedKey }) {
  const { copy, theme } = useServices();
  const { active } = useScreenFrame();
  const navigate = useNavigate();
  const [revealed, setRevealed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [flash, setFlash] = useFlash();
  useScreenMode('secret');

  useScreenKeys(
    (input, key) => {
      const command = commandFor('secret', input, key);
      if (confirming) {
        if (command === 'confirm') navigate({ type: 'returnToKeys', subAccount: created.subAccount, highlightApiKey: created.apiKey });
        else setConfirming(false);
        return true; // every key is ours here: Esc must not leave without the confirmation
      }
      switch (command) {
        case 'reveal': setRevealed((r) => !r); return true;
        case 'copySecret': copy(created.secretKey); setFlash('Copied the secret key to the clipboard'); return true;
        case 'copyKey': copy(created.apiKey); setFlash('Copied the API key to the clipboard'); return true;
        case 'leave': setConfirming(true); return true;
        default: return command !== undefined || key.escape;
      }
    },
    { active },
  );

  return (
    <Box flexDirection="column">
      <Text bold color={theme.ok}>✓ Key created for {created.subAccount}</Text>
      <Text color={theme.warn} bold>⚠ Store the secret key now: it will not be shown again.</Text>
      <Box marginY={1} flexDirection="column">
        <FieldList
          fields={[
            ['API key', created.apiKey],
            ['Secret key', revealed ? created.secretKey : `${'•'.repeat(24)}  (v shows it)`],
            ['Permissions', created.permissions.join(', ')],
            ['Linked IPs', created.ips.length === 0 ? 'none (any address)' : created.ips.join(', ')],
            ['Note', created.note],
            ['Created', localTime(created.createdAt, true)],
          ]}
        />
      </Box>
      {confirming ? (
        <Text color={theme.warn} bold>Have you stored the secret key? y: yes, leave (it is gone for good) · any other key: stay</Text>
      ) : (
        <Text color={theme.muted}>{flash ?? 's copies the secret · c copies the API key · enter when you have stored it'}</Text>
      )}
    </Box>
  );
}
