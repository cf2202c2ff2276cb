// Loaded with `node --import` into a child process a test measures: at exit, the process's peak resident set
// (process.resourceUsage().maxRSS, KiB) is written to the file MAX_RSS_FILE names.
import { writeFileSync } from 'node:fs';

const file = process.env.MAX_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
