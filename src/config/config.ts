/**
 * Configuration and profiles (conf). Precedence for every setting:
 * flag > environment variable > the active profile > default.
 * The active profile is `--profile`, else `DPE_SIM_PROFILE`, else the one chosen with
 * `dpe-sim config use NAME`, else `default`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Conf from 'conf';
import { DpeSimError } from '../contract/errors.js';
import { DEFAULT_APP_URL, DEFAULT_HISTORY_PATH, ENV_VARS, type SettingKey } from './keys.js';
import { BUNDLED_FIXTURES, defaultDataDir } from './paths.js';

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
  /** the national registry's address (a URL with {numero}, or a base); undefined: the default */
  registryUrl: string | undefined;
  /** a PostgreSQL URL for the shared store; undefined: the SQLite file in dataDir */
  storeUrl: string | undefined;
  /** a PostgreSQL URL for the distributed batch queue (batch --queue, worker) */
  queueUrl: string | undefined;
  profile: string;
  /**
   * Remote mode only: the identity settings that were given nowhere (flag, environment,
   * profile). Local mode fills them with its documented default identity instead.
   */
  missingIdentity: ('customerId' | 'userId')[];
}

type ProfileValues = Partial<Record<SettingKey, string>>;
interface ConfShape {
  currentProfile?: string;
  profiles?: Record<string, ProfileValues>;
  [key: string]: unknown;
}

/** The config file (it may hold a partner key) and its directory: the owner's only. */
export const CONFIG_FILE_MODE = 0o600;
export const CONFIG_DIR_MODE = 0o700;

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}

export class ConfigStore {
  private readonly conf: Conf<ConfShape>;

  constructor(configDir?: string) {
    const dir = configDir ?? process.env.DPE_SIM_CONFIG_DIR;
    // the file may hold a partner key: readable by its owner only, in a directory of its own
    if (dir) fs.mkdirSync(path.resolve(dir), { recursive: true, mode: CONFIG_DIR_MODE });
    this.conf = new Conf<ConfShape>({
      projectName: 'dpe-sim',
      projectSuffix: '',
      configFileMode: CONFIG_FILE_MODE,
      ...(dir ? { cwd: path.resolve(dir) } : {}),
    });
    fs.mkdirSync(path.dirname(this.conf.path), { recursive: true, mode: CONFIG_DIR_MODE });
  }

  /**
   * What is looser than it should be: the config file readable or writable by others while it
   * holds a partner key, or its directory open to others. One sentence each, with the fix.
   */
  permissionWarnings(): string[] {
    const out: string[] = [];
    const file = this.conf.path;
    const dir = path.dirname(file);
    const holdsKey = Object.values(this.conf.get('profiles') ?? {}).some(
      (p) => p.partnerKey !== undefined,
    );
    const mode = (p: string): number | undefined => {
      try {
        return fs.statSync(p).mode & 0o777;
      } catch {
        return undefined;
      }
    };
    const fileMode = mode(file);
    if (holdsKey && fileMode !== undefined && (fileMode & 0o077) !== 0)
      out.push(
        `warning: ${file} holds a partner key and is mode ${octal(fileMode)}: others may read it. Fix: chmod 600 ${file}`,
      );
    const dirMode = mode(dir);
    if (holdsKey && dirMode !== undefined && (dirMode & 0o077) !== 0)
      out.push(
        `warning: the config directory ${dir} is mode ${octal(dirMode)}. Fix: chmod 700 ${dir}`,
      );
    return out;
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
    if (key === 'partnerKey') fs.chmodSync(this.conf.path, CONFIG_FILE_MODE);
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

export function validateSetting(key: SettingKey, value: string): void {
  const fail = (why: string) => {
    throw new DpeSimError('invalid-input', `invalid value for ${key}: ${why}`);
  };
  switch (key) {
    case 'backend':
      if (value !== 'local' && value !== 'remote') fail("use 'local' or 'remote'");
      break;
    case 'storeUrl':
    case 'queueUrl':
      if (!/^postgres(ql)?:\/\/\S+$/i.test(value))
        fail('a PostgreSQL URL: postgres://user:password@host:5432/database');
      break;
    case 'baseUrl':
    case 'appUrl':
    case 'registryUrl':
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
  const backend =
    (backendSetting as Settings['backend'] | undefined) ?? (baseUrl ? 'remote' : 'local');
  const customerId = pick('customerId');
  const userId = pick('userId');
  if (backend === 'remote') {
    // no invented identity for a partner service: customerId and userId must be given; the
    // names default to the ids (the spec requires them, dpe-sim does not make them up)
    const missingIdentity = [
      ...(customerId === undefined ? (['customerId'] as const) : []),
      ...(userId === undefined ? (['userId'] as const) : []),
    ];
    return {
      ...common(),
      backend,
      customerId: customerId ?? '',
      userId: userId ?? '',
      userName: pick('userName') ?? userId ?? '',
      customerName: pick('customerName') ?? customerId ?? '',
      missingIdentity,
    };
  }
  return {
    ...common(),
    backend,
    customerId: customerId ?? 'local',
    userId: userId ?? user,
    userName: pick('userName') ?? user,
    customerName: pick('customerName') ?? 'Local workstation',
    missingIdentity: [],
  };

  function common() {
    return {
      profile,
      baseUrl,
      partnerKey: pick('partnerKey'),
      appUrl: pick('appUrl') ?? DEFAULT_APP_URL,
      dpeDir: path.resolve(pick('dpeDir') ?? BUNDLED_FIXTURES),
      dataDir: path.resolve(pick('dataDir') ?? defaultDataDir(env)),
      costs: pick('costs'),
      timeout: Number(pick('timeout') ?? 30),
      retries: Number(pick('retries') ?? 2),
      historyPath: pick('historyPath') ?? DEFAULT_HISTORY_PATH,
      registryUrl: pick('registryUrl'),
      storeUrl: pick('storeUrl'),
      queueUrl: pick('queueUrl'),
    };
  }
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
