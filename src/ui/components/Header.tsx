import React from 'react';
import { Box, Text } from 'ink';
import { useServices } from '../services';
import { displayWidth, fit, fitEnd, sanitize } from '../../terminal/text';
import type { ProfileColor } from '../../credentials/profiles';
import type { Theme } from '../theme';

const NAME = 'broker-console ';
const READ_ONLY = ' READ-ONLY ';
const CLEARTEXT = ' PLAIN HTTP ';

/** The profile's name as the LIVE badge carries it: outside text, cut to a sixth of the line (12 cells at most). */
function profileBadgeName(profile: string, width: number): string {
  const name = sanitize(profile);
  const room = Math.max(3, Math.min(12, Math.floor(width / 6)));
  return displayWidth(name) > room ? fit(name, room) : name;
}

/** The badge in the profile's colour, its text kept readable on it; none under NO_COLOR (the badge is reversed). */
function profileBadge(theme: Theme, color: ProfileColor): { color: string | undefined; backgroundColor: string | undefined } {
  if (!theme.color) return theme.liveBadge;
  const dark = color === 'yellow' || color === 'green' || color === 'cyan';
  return { color: dark ? 'black' : 'white', backgroundColor: color };
}

/**
 * First line: name, DEMO/LIVE badge (LIVE with the profile's name) (and READ-ONLY for a read-only target), the host, and where the operator is (the end of the trail when it is
 * long). Always exactly one line of `width` cells: the name goes first when room is short, then the host is cut.
 * The host and the breadcrumbs (a sub-account name) are outside text.
 */
export function Header({ crumbs, width }: { crumbs: string[]; width: number }) {
  const { mode, host: targetHost, theme, readOnly, cleartext, profile, profileColor } = useServices();
  // A live target names its profile inside the badge: under NO_COLOR the name, not a colour, tells prod from sbx.
  const badge = mode === 'demo' ? ' DEMO ' : mode === 'setup' ? ' SETUP ' : ` LIVE ${profileBadgeName(profile, width)} `;
  const badgeStyle = mode === 'live' ? (profileColor !== undefined ? profileBadge(theme, profileColor) : theme.liveBadge) : theme.demoBadge;
  // A read-only target says so beside the mode, at every width (the trail and the host give way first).
  const lock = readOnly ? READ_ONLY : '';
  // Plain http:// to another host: the API key, signatures and created secrets travel unencrypted.
  const clear = cleartext && mode === 'live' ? CLEARTEXT : '';
  const badges = displayWidth(badge) + (lock ? lock.length + 1 : 0) + (clear ? clear.length + 1 : 0);
  const trail = sanitize(crumbs.join(' › '));
  const host = mode === 'live' ? sanitize(targetHost) : '';
  const showName = width - badges - (host ? Math.min(displayWidth(host), 15) + 1 : 0) - 1 >= NAME.length + 12;
  const fixed = (showName ? NAME.length : 0) + badges + 1;
  // The host keeps up to half of what is left; the trail gets the rest.
  const hostRoom = host ? Math.min(displayWidth(host), Math.max(0, Math.floor((width - fixed) / 2) - 1)) : 0;
  const trailRoom = Math.max(0, width - fixed - (hostRoom > 0 ? hostRoom + 1 : 0));
  return (
    <Box width={width} height={1} overflowY="hidden">
      <Text>
        {showName ? <Text bold>{NAME}</Text> : null}
        <Text bold color={badgeStyle.color} backgroundColor={badgeStyle.backgroundColor} inverse={!theme.color}>
          {badge}
        </Text>
        {lock ? (
          <Text>
            {' '}
            <Text bold color={theme.readOnlyBadge.color} backgroundColor={theme.readOnlyBadge.backgroundColor} inverse={!theme.color}>
              {lock}
            </Text>
          </Text>
        ) : null}
        {clear ? (
          <Text>
            {' '}
            <Text bold color={theme.error} inverse>
              {clear}
            </Text>
          </Text>
        ) : null}
        {hostRoom > 0 ? <Text> {fit(host, hostRoom).trimEnd()}</Text> : null}
        <Text> </Text>
        <Text color={theme.accent}>{fitEnd(trail, trailRoom).trimEnd()}</Text>
      </Text>
    </Box>
  );
}
