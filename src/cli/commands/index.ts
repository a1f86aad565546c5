/**
 * Every command of dpe-sim, one file each (as the GitHub CLI's `pkg/cmd/<name>`): each file
 * declares its flags, its help with examples, and its action, and exports `register`.
 * Adding a command means adding its file and one line here.
 */
import type { Command } from 'commander';
import { register as audit } from './audit.js';
import { register as auth } from './auth.js';
import { register as batch } from './batch.js';
import { register as cache } from './cache.js';
import { register as calc } from './calc.js';
import { register as completion } from './completion.js';
import { register as config } from './config.js';
import { register as history } from './history.js';
import { register as initial } from './initial.js';
import { register as keys } from './keys.js';
import { register as pre } from './pre.js';
import { register as serve } from './serve.js';
import { register as worker } from './worker.js';
import { register as workbench } from './workbench.js';

/** In the order `dpe-sim --help` lists them. */
export const COMMANDS: readonly ((program: Command) => void)[] = [
  pre,
  auth,
  initial,
  calc,
  audit,
  workbench,
  serve,
  keys,
  config,
  history,
  batch,
  worker,
  cache,
  completion,
];
