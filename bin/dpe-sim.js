#!/usr/bin/env node
// dpe-sim: the command-line entry point. The code lives in dist/ (built from src/ on install):
// dist/bundle/ is the command line in a few files (scripts/bundle-cli.mjs), for start-up time.
import { main } from '../dist/bundle/cli.js';

// a closed pipe (`dpe-sim ... | head`) ends the command quietly
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

process.exitCode = await main(process.argv);
