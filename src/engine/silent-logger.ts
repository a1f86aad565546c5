/**
 * What the engine bundle gets for `winston` (scripts/bundle-engine.mjs). The engine's one use
 * of winston is its logger (core/util/logger/log-service.js: `createLogger`, a few formats, a
 * console transport), and dpe-sim silences that logger as soon as the engine loads
 * (engine.ts: `log.logger.silent = true`; a silent winston logger writes nothing). This logger
 * writes nothing either, without loading winston and its streams (about 350 KB of the bundle
 * and a quarter of its load time).
 */
const noop = (): void => {};
const noFormat = (): Record<string, never> => ({});

export const format = {
  combine: noFormat,
  timestamp: noFormat,
  prettyPrint: noFormat,
  colorize: noFormat,
  errors: noFormat,
  printf: noFormat,
  json: noFormat,
  simple: noFormat,
};

export const transports = {
  Console: class Console {},
};

export interface SilentLogger {
  silent: boolean;
  level: string;
  log: () => void;
  error: () => void;
  warn: () => void;
  info: () => void;
  http: () => void;
  verbose: () => void;
  debug: () => void;
  silly: () => void;
}

export function createLogger(): SilentLogger {
  return {
    silent: true,
    level: 'info',
    log: noop,
    error: noop,
    warn: noop,
    info: noop,
    http: noop,
    verbose: noop,
    debug: noop,
    silly: noop,
  };
}

export default { createLogger, format, transports };
