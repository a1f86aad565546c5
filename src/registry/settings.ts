/**
 * How the registry is reached, resolved once (plain data, so it travels to batch workers):
 * the address (--registry-url > DPE_SIM_REGISTRY_URL > profile `registryUrl` > the national
 * registry), offline mode (--offline or DPE_SIM_OFFLINE=1), and the request knobs.
 */
import { DpeSimError } from '../contract/errors.js';
import { cacheDirFor } from './cache.js';
import { DEFAULT_REGISTRY_URL } from './client.js';
import { isTimeoutSeconds, MAX_TIMEOUT_SECONDS } from './retry.js';

export interface RegistrySettings {
  /** a URL with `{numero}`, or a base to which `/<numero>/xml` is appended */
  url: string;
  /** no network request at all */
  offline: boolean;
  timeoutMs: number;
  retries: number;
  backoffMs: number;
  cacheDir: string;
}

export const REGISTRY_ENV = {
  offline: 'DPE_SIM_OFFLINE',
  timeout: 'DPE_SIM_REGISTRY_TIMEOUT',
  retries: 'DPE_SIM_REGISTRY_RETRIES',
  backoffMs: 'DPE_SIM_REGISTRY_BACKOFF_MS',
} as const;

export const DEFAULT_REGISTRY_TIMEOUT_S = 15;
export const DEFAULT_REGISTRY_RETRIES = 3;
export const DEFAULT_REGISTRY_BACKOFF_MS = 500;

function truthy(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes|on)$/i.test(value.trim());
}

function numberFrom(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  ok: (n: number) => boolean,
  expected: string,
): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || !ok(n)) {
    throw new DpeSimError('invalid-input', `${name} must be ${expected} (got '${raw}')`, {
      variable: name,
      value: raw,
    });
  }
  return n;
}

export function resolveRegistrySettings(
  input: { registryUrl: string | undefined; offline: boolean | undefined; dataDir: string },
  env: NodeJS.ProcessEnv = process.env,
): RegistrySettings {
  return {
    url: input.registryUrl ?? DEFAULT_REGISTRY_URL,
    offline: input.offline === true || truthy(env[REGISTRY_ENV.offline]),
    timeoutMs:
      numberFrom(
        env,
        REGISTRY_ENV.timeout,
        DEFAULT_REGISTRY_TIMEOUT_S,
        isTimeoutSeconds,
        `a number of seconds above 0, at most ${MAX_TIMEOUT_SECONDS} (a day)`,
      ) * 1000,
    retries: numberFrom(
      env,
      REGISTRY_ENV.retries,
      DEFAULT_REGISTRY_RETRIES,
      (n) => Number.isInteger(n) && n >= 0 && n <= 10,
      'an integer from 0 to 10',
    ),
    backoffMs: numberFrom(
      env,
      REGISTRY_ENV.backoffMs,
      DEFAULT_REGISTRY_BACKOFF_MS,
      (n) => n >= 0,
      'a number of milliseconds ≥ 0',
    ),
    cacheDir: cacheDirFor(input.dataDir),
  };
}
