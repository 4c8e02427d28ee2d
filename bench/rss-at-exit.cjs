// Preloaded into a measured child: reports its peak resident memory (KiB) on stderr as it exits.
process.on('exit', () => {
  process.stderr.write(`\nBENCH_MAX_RSS_KB=${process.resourceUsage().maxRSS}\n`);
});
