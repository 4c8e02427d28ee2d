// Copy through the terminal (OSC 52): works over SSH and in tmux with set-clipboard on; nothing touches disk.
export type CopyToClipboard = (text: string) => void;

export function osc52Clipboard(out: NodeJS.WritableStream): CopyToClipboard {
  return (text) => {
    const payload = Buffer.from(text, 'utf8').toString('base64');
    out.write(`\u001b]52;c;${payload}\u0007`);
  };
}
