// Copy through the terminal (OSC 52): works over SSH and in tmux with set-clipboard on; nothing touches disk.
// Whether the terminal took it cannot be known from here, so a copy says what was done, not that it worked.
export type CopyToClipboard = (text: string) => string;

export const OSC52_SENT = 'sent to the terminal clipboard (OSC 52) — paste it to check';

export function osc52Clipboard(out: NodeJS.WritableStream): CopyToClipboard {
  return (text) => {
    const payload = Buffer.from(text, 'utf8').toString('base64');
    out.write(`\u001b]52;c;${payload}\u0007`);
    return OSC52_SENT;
  };
}
