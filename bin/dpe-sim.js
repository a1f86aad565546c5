#!/usr/bin/env node
// dpe-sim: the command-line entry point. The code lives in dist/ (built from src/ on install).
import { main } from '../dist/cli/main.js';

// a closed pipe (`dpe-sim ... | head`) ends the command quietly
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

process.exitCode = await main(process.argv);
