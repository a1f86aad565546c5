/**
 * Configuration and profiles (conf). Precedence for every setting:
 * flag > environment variable > the active profile > default.
 * The active profile is `--profile`, else `DPE_SIM_PROFILE`, else the one chosen with
 * `dpe-sim config use NAME`, else `default`.
 */
import os from 'node:os';
import path from 'node:path';
import Conf from 'conf';
import { DpeSimError } from '../contract/errors.js';
import { BUNDLED_FIXTURES, defaultDataDir } from './paths.js';

export const SETTING_KEYS = [
  'backend',
  'baseUrl',
  'partnerKey',
  'appUrl',
  'dpeDir',
  'dataDir',
  'customerId',
  'userId',
  'userName',
  'customerName',
  'costs',
  'timeout',
  'retries',
  'historyPath',
  'storeUrl',
  'queueUrl',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const ENV_VARS: Record<SettingKey, string> = {
  backend: 'DPE_SIM_BACKEND',
  baseUrl: 'DPE_SIM_BASE_URL',
  partnerKey: 'DPE_SIM_PARTNER_KEY',
  appUrl: 'DPE_SIM_APP_URL',
  dpeDir: 'DPE_SIM_DPE_DIR',
  dataDir: 'DPE_SIM_DATA_DIR',
  customerId: 'DPE_SIM_CUSTOMER_ID',
  userId: 'DPE_SIM_USER_ID',
  userName: 'DPE_SIM_USER_NAME',
  customerName: 'DPE_SIM_CUSTOMER_NAME',
  costs: 'DPE_SIM_COSTS',
  timeout: 'DPE_SIM_TIMEOUT',
  retries: 'DPE_SIM_RETRIES',
  historyPath: 'DPE_SIM_HISTORY_PATH',
  storeUrl: 'DPE_SIM_STORE_URL',
  queueUrl: 'DPE_SIM_QUEUE_URL',
};

export const DEFAULT_APP_URL = 'http://127.0.0.1:8787';
export const DEFAULT_HISTORY_PATH = '/partners/tracking/history';

export interface Settings {
  backend: 'local' | 'remote';
  baseUrl: string | undefined;
  partnerKey: string | undefined;
  appUrl: string;
  dpeDir: string;
  dataDir: string;
  customerId: string;
  userId: string;
  userName: string;
  customerName: string;
  costs: string | undefined;
  /** seconds */
  timeout: number;
  retries: number;
  historyPath: string;
  /** a PostgreSQL URL for the shared store; undefined: the SQLite file in dataDir */
  storeUrl: string | undefined;
  /** a PostgreSQL URL for the distributed batch queue (batch --queue, worker) */
  queueUrl: string | undefined;
  profile: string;
}

type ProfileValues = Partial<Record<SettingKey, string>>;
interface ConfShape {
  currentProfile?: string;
  profiles?: Record<string, ProfileValues>;
  [key: string]: unknown;
}

export class ConfigStore {
  private readonly conf: Conf<ConfShape>;

  constructor(configDir?: string) {
    const dir = configDir ?? process.env.DPE_SIM_CONFIG_DIR;
    this.conf = new Conf<ConfShape>({
      projectName: 'dpe-sim',
      projectSuffix: '',
      ...(dir ? { cwd: path.resolve(dir) } : {}),
    });
  }

  get file(): string {
    return this.conf.path;
  }

  currentProfile(): string {
    return this.conf.get('currentProfile') ?? 'default';
  }

  use(profile: string): void {
    checkProfileName(profile);
    this.conf.set('currentProfile', profile);
  }

  profile(name: string): ProfileValues {
    return this.conf.get('profiles')?.[name] ?? {};
  }

  profiles(): string[] {
    return Object.keys(this.conf.get('profiles') ?? {});
  }

  set(profile: string, key: SettingKey, value: string): void {
    checkProfileName(profile);
    validateSetting(key, value);
    const profiles = { ...(this.conf.get('profiles') ?? {}) };
    profiles[profile] = { ...(profiles[profile] ?? {}), [key]: value };
    this.conf.set('profiles', profiles);
  }

  unset(profile: string, key: SettingKey): boolean {
    const profiles = { ...(this.conf.get('profiles') ?? {}) };
    const p = { ...(profiles[profile] ?? {}) };
    if (!(key in p)) return false;
    delete p[key];
    profiles[profile] = p;
    this.conf.set('profiles', profiles);
    return true;
  }
}

function checkProfileName(name: string): void {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) {
    throw new DpeSimError(
      'invalid-input',
      `invalid profile name '${name}': use letters, digits, '.', '_' or '-'`,
    );
  }
}

export function isSettingKey(key: string): key is SettingKey {
  return (SETTING_KEYS as readonly string[]).includes(key);
}

export function validateSetting(key: SettingKey, value: string): void {
  const fail = (why: string) => {
    throw new DpeSimError('invalid-input', `invalid value for ${key}: ${why}`);
  };
  switch (key) {
    case 'backend':
      if (value !== 'local' && value !== 'remote') fail("use 'local' or 'remote'");
      break;
    case 'baseUrl':
    case 'appUrl':
      try {
        const u = new URL(value);
        if (u.protocol !== 'http:' && u.protocol !== 'https:') fail('use an http(s) URL');
      } catch {
        fail(`'${value}' is not a URL`);
      }
      break;
    case 'timeout':
      if (!(Number(value) > 0)) fail('a number of seconds > 0');
      break;
    case 'retries':
      if (!/^\d+$/.test(value) || Number(value) > 10) fail('an integer from 0 to 10');
      break;
    case 'customerId':
    case 'userId':
      if (value.includes(':')) fail("it must not contain ':'");
      if (value === '') fail('it must not be empty');
      break;
    case 'historyPath':
      if (!value.startsWith('/')) fail("a path starting with '/'");
      break;
    case 'storeUrl':
    case 'queueUrl':
      if (!/^postgres(ql)?:\/\/\S+$/i.test(value))
        fail('a PostgreSQL URL: postgres://user:password@host:5432/database');
      break;
    default:
      break;
  }
}

/** Flags the caller gave (undefined when not given). */
export type SettingFlags = Partial<Record<SettingKey, string>> & { profile?: string };

export function resolveSettings(
  flags: SettingFlags,
  config: ConfigStore,
  env: NodeJS.ProcessEnv = process.env,
): Settings {
  const profile = flags.profile ?? env.DPE_SIM_PROFILE ?? config.currentProfile();
  const stored = config.profile(profile);
  const pick = (key: SettingKey): string | undefined => {
    const v = flags[key] ?? env[ENV_VARS[key]] ?? stored[key];
    if (v !== undefined && v !== '') {
      validateSetting(key, v);
      return v;
    }
    return undefined;
  };
  const user = safeUserName();
  const baseUrl = pick('baseUrl');
  const backendSetting = pick('backend');
  return {
    profile,
    backend: (backendSetting as Settings['backend'] | undefined) ?? (baseUrl ? 'remote' : 'local'),
    baseUrl,
    partnerKey: pick('partnerKey'),
    appUrl: pick('appUrl') ?? DEFAULT_APP_URL,
    dpeDir: path.resolve(pick('dpeDir') ?? BUNDLED_FIXTURES),
    dataDir: path.resolve(pick('dataDir') ?? defaultDataDir(env)),
    customerId: pick('customerId') ?? 'local',
    userId: pick('userId') ?? user,
    userName: pick('userName') ?? user,
    customerName: pick('customerName') ?? 'Local workstation',
    costs: pick('costs'),
    timeout: Number(pick('timeout') ?? 30),
    retries: Number(pick('retries') ?? 2),
    historyPath: pick('historyPath') ?? DEFAULT_HISTORY_PATH,
    storeUrl: pick('storeUrl'),
    queueUrl: pick('queueUrl'),
  };
}

function safeUserName(): string {
  try {
    const name = os.userInfo().username.replace(/:/g, '_');
    return name || 'user';
  } catch {
    return 'user';
  }
}

/** The partner key as shown to a human: only its last 4 characters. */
export function maskKey(key: string | undefined): string {
  if (!key) return '(none)';
  return `…${key.slice(-4)}`;
}
