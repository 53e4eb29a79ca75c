// Preloaded by the benchmark: prints the process's peak resident set size on exit.
process.on('exit', () => process.stderr.write(`peak-rss-kb ${process.resourceUsage().maxRSS}\n`));
