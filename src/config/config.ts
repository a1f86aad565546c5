/**
 * Configuration and profiles (a JSON file, written with conf). Precedence for every setting:
 * flag > environment variable > the active profile > default.
 * The active profile is `--profile`, else `DPE_SIM_PROFILE`, else the one chosen with
 * `dpe-sim config use NAME`, else `default`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import envPaths from 'env-paths';
import { DpeSimError } from '../contract/errors.js';
import { DEFAULT_APP_URL, DEFAULT_HISTORY_PATH, ENV_VARS, type SettingKey } from './keys.js';
import { BUNDLED_FIXTURES, defaultDataDir } from './paths.js';
import { isTimeoutSeconds, MAX_TIMEOUT_SECONDS } from '../registry/retry.js';

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
/**
 * How long the remote client waits for an answer, s: an `initial` takes 33 s alone on the
 * corpus's slowest DPE, and a busy server queues it behind others; a computation is never sent
 * twice (src/backend/remote.ts), so this wait is the whole of it.
 */
export const DEFAULT_TIMEOUT_SECONDS = 300;

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}

export class ConfigStore {
  /** the config file (conf's own path for these options) */
  readonly file: string;
  private readonly dir: string | undefined;

  constructor(configDir?: string) {
    const dir = configDir ?? process.env.DPE_SIM_CONFIG_DIR;
    this.dir = dir ? path.resolve(dir) : undefined;
    // the file may hold a partner key: readable by its owner only, in a directory of its own
    if (this.dir) fs.mkdirSync(this.dir, { recursive: true, mode: CONFIG_DIR_MODE });
    // where conf keeps it (its `cwd`, else env-paths' config directory for the project)
    this.file = path.join(this.dir ?? envPaths('dpe-sim', { suffix: '' }).config, 'config.json');
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: CONFIG_DIR_MODE });
  }

  /**
   * The file as it is now. Reading needs no library (every command reads it; conf loads a JSON
   * schema validator, a tenth of a second of start-up); writing goes through conf (atomic
   * writes, the file's mode).
   */
  private read(): ConfShape {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new DpeSimError(
        'runtime',
        `cannot read the config file ${this.file}: ${(err as Error).message}`,
      );
    }
    let data: unknown;
    try {
      data = text.trim() === '' ? {} : JSON.parse(text);
    } catch (err) {
      throw new DpeSimError(
        'invalid-input',
        `the config file ${this.file} is not valid JSON (${(err as Error).message}): fix it, or move it away to start from no settings`,
        {
          hint: `open ${this.file} in an editor, or point DPE_SIM_CONFIG_DIR at another directory`,
        },
      );
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data))
      throw new DpeSimError(
        'invalid-input',
        `the config file ${this.file} is not a JSON object: fix it, or move it away to start from no settings`,
        {
          hint: `open ${this.file} in an editor, or point DPE_SIM_CONFIG_DIR at another directory`,
        },
      );
    return data as ConfShape;
  }

  private async write(key: 'profiles' | 'currentProfile', value: unknown): Promise<void> {
    const { default: Conf } = await import('conf');
    const conf = new Conf<ConfShape>({
      projectName: 'dpe-sim',
      projectSuffix: '',
      configFileMode: CONFIG_FILE_MODE,
      cwd: path.dirname(this.file),
    });
    conf.set(key, value);
  }

  /**
   * What is looser than it should be: the config file readable or writable by others while it
   * holds a partner key, or its directory open to others. One sentence each, with the fix.
   */
  permissionWarnings(): string[] {
    const out: string[] = [];
    const file = this.file;
    const dir = path.dirname(file);
    const holdsKey = Object.values(this.read().profiles ?? {}).some(
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

  currentProfile(): string {
    const current = this.read().currentProfile;
    return typeof current === 'string' ? current : 'default';
  }

  async use(profile: string): Promise<void> {
    checkProfileName(profile);
    await this.write('currentProfile', profile);
  }

  profile(name: string): ProfileValues {
    return this.read().profiles?.[name] ?? {};
  }

  profiles(): string[] {
    return Object.keys(this.read().profiles ?? {});
  }

  async set(profile: string, key: SettingKey, value: string): Promise<void> {
    checkProfileName(profile);
    validateSetting(key, value);
    const profiles = { ...(this.read().profiles ?? {}) };
    profiles[profile] = { ...(profiles[profile] ?? {}), [key]: value };
    await this.write('profiles', profiles);
    if (key === 'partnerKey') fs.chmodSync(this.file, CONFIG_FILE_MODE);
  }

  async unset(profile: string, key: SettingKey): Promise<boolean> {
    const profiles = { ...(this.read().profiles ?? {}) };
    const p = { ...(profiles[profile] ?? {}) };
    if (!(key in p)) return false;
    delete p[key];
    profiles[profile] = p;
    await this.write('profiles', profiles);
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
      if (!isTimeoutSeconds(Number(value)))
        fail(`a number of seconds above 0, at most ${MAX_TIMEOUT_SECONDS} (a day)`);
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
      timeout: Number(pick('timeout') ?? DEFAULT_TIMEOUT_SECONDS),
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
