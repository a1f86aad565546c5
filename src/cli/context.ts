/**
 * What every command needs: the resolved settings, the identity, a Backend (local or remote),
 * the DPE argument resolved, and the output conventions (--json, colour, stderr messages).
 */
import { existsSync } from 'node:fs';
import { readInputFile } from '../contract/input-file.js';
import { DpeSimError } from '../contract/errors.js';
import { DPE_ID_PATTERN, DPE_ID_REGEX, MAX_DPE_XML_BYTES } from '../contract/constants.js';
import type { PartnerIdentity } from '../contract/schemas.js';
import {
  ConfigStore,
  resolveSettings,
  type Settings,
  type SettingFlags,
} from '../config/config.js';
import type { Backend } from '../backend/backend.js';
import type { LocalServices } from '../backend/local-services.js';
import type { ComposedBackend, LocalConfig, RemoteConfig } from '../compose.js';
import type { GlobalFlags, IdentityFlags } from './flags.js';
import { readStdin } from './stdin.js';
import { osReason } from '../contract/os-errors.js';
import { colourEnabled, makeStyle, type Style } from './render/style.js';
import { setWide } from './render/layout.js';
import { stderrWidth, wrapText } from './format.js';

/** The options a command's action sees: the global flags and, where declared, the identity. */
export type GlobalOptions = GlobalFlags & IdentityFlags & { queue?: string };

export class Output {
  readonly style: Style;
  constructor(
    readonly json: boolean,
    color: boolean | undefined,
    readonly wide = false,
  ) {
    this.style = makeStyle(!json && colourEnabled({ ...(color === undefined ? {} : { color }) }));
    setWide(wide);
  }

  /** The response body as JSON on stdout (--json), or the human rendering. */
  result(body: unknown, human: () => string): void {
    if (this.json) process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    else process.stdout.write(`${human()}\n`);
  }

  /**
   * The response body as JSON (--json), or as `render` gives it: a renderer loaded only when
   * a human reads the output (`--json` loads no table code, after the engine has answered).
   */
  async present(body: unknown, render: () => Promise<string>): Promise<void> {
    const human = this.json ? '' : await render();
    this.result(body, () => human);
  }

  /** A message for humans, on stderr (never pollutes --json output). */
  note(message: string): void {
    process.stderr.write(`${wrapText(message, stderrWidth())}\n`);
  }
}

async function readPartnerKeyFile(file: string): Promise<string> {
  try {
    const text =
      file === '-'
        ? await readStdin()
        : (await readInputFile(file, { what: 'the partner key file', maxBytes: 64 * 1024 })).text;
    const key = text.trim();
    if (!key) throw new DpeSimError('invalid-input', `the partner key file ${file} is empty`);
    return key;
  } catch (err) {
    if (err instanceof DpeSimError) throw err;
    throw new DpeSimError(
      'invalid-input',
      `cannot read the partner key file ${file}: ${osReason(err)}`,
    );
  }
}

const IDENTITY_FLAGS = { customerId: '--customer-id', userId: '--user-id' } as const;
const IDENTITY_ENV = { customerId: 'DPE_SIM_CUSTOMER_ID', userId: 'DPE_SIM_USER_ID' } as const;

function missingIdentityError(missing: readonly ('customerId' | 'userId')[]): DpeSimError {
  const ways = missing
    .map(
      (k) =>
        `${k} (${IDENTITY_FLAGS[k]} ID, ${IDENTITY_ENV[k]}, or \`dpe-sim config set ${k} ID\`)`,
    )
    .join(' and ');
  return new DpeSimError(
    'invalid-input',
    `the remote backend needs your partner identity; missing: ${ways}. dpe-sim does not invent one for a partner service.`,
    { missing: [...missing] },
  );
}

export class Context {
  private composed: Promise<ComposedBackend> | undefined;
  private services: Promise<LocalServices> | undefined;

  constructor(
    readonly opts: GlobalOptions,
    readonly settings: Settings,
    readonly config: ConfigStore,
    readonly out: Output,
  ) {}

  static async create(opts: GlobalOptions): Promise<Context> {
    const config = new ConfigStore(opts.configDir);
    const flags: SettingFlags = {
      ...(opts.profile !== undefined && { profile: opts.profile }),
      ...(opts.backend !== undefined && { backend: opts.backend }),
      ...(opts.baseUrl !== undefined && { baseUrl: opts.baseUrl }),
      ...(opts.appUrl !== undefined && { appUrl: opts.appUrl }),
      ...(opts.dpeDir !== undefined && { dpeDir: opts.dpeDir }),
      ...(opts.dataDir !== undefined && { dataDir: opts.dataDir }),
      ...(opts.store !== undefined && { storeUrl: opts.store }),
      ...(opts.queue !== undefined && { queueUrl: opts.queue }),
      ...(opts.customerId !== undefined && { customerId: opts.customerId }),
      ...(opts.userId !== undefined && { userId: opts.userId }),
      ...(opts.userName !== undefined && { userName: opts.userName }),
      ...(opts.customerName !== undefined && { customerName: opts.customerName }),
      ...(opts.costs !== undefined && { costs: opts.costs }),
      ...(opts.timeout !== undefined && { timeout: opts.timeout }),
      ...(opts.retries !== undefined && { retries: opts.retries }),
      ...(opts.registryUrl !== undefined && { registryUrl: opts.registryUrl }),
    };
    if (opts.partnerKeyFile !== undefined)
      flags.partnerKey = await readPartnerKeyFile(opts.partnerKeyFile);
    const settings = resolveSettings(flags, config);
    return new Context(
      opts,
      settings,
      config,
      new Output(Boolean(opts.json), opts.color, Boolean(opts.wide)),
    );
  }

  /** The partner identity; in remote mode, exit 2 naming what was given nowhere. */
  get identity(): PartnerIdentity {
    const s = this.settings;
    if (s.missingIdentity.length > 0) throw missingIdentityError(s.missingIdentity);
    return {
      customerId: s.customerId,
      userId: s.userId,
      userName: s.userName,
      customerName: s.customerName,
    };
  }

  /** Interactive prompts are allowed: stdin and stdout are TTYs, no --no-input, not CI. */
  get canPrompt(): boolean {
    return (
      this.opts.input !== false &&
      Boolean(process.stdin.isTTY && process.stdout.isTTY) &&
      !(process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0')
    );
  }

  /** What the composition root needs for the local side, from the resolved settings. */
  get localConfig(): LocalConfig {
    const s = this.settings;
    return {
      dataDir: s.dataDir,
      storeUrl: s.storeUrl,
      dpeDir: s.dpeDir,
      appUrl: s.appUrl,
      costs: s.costs,
      registryUrl: s.registryUrl,
      offline: this.opts.offline === true,
    };
  }

  /**
   * The backend of this command, composed on the first call. `startEngine`: the command
   * computes, so the local engine thread starts loading now (see `computing`).
   */
  backend(opts: { startEngine?: boolean } = {}): Promise<Backend> {
    this.composed ??= this.openBackend(opts.startEngine === true);
    return this.composed.then((c) => c.backend);
  }

  /**
   * A command that computes (pre, initial, calc, audit): its DPE argument and its backend, with
   * the local engine thread started by the backend's first use, before the store is opened
   * (reading a file is such a use: the engine loads meanwhile). One engine thread, not one per
   * core: the exact scenario search, most of an `initial` on a large DPE, runs on one thread,
   * and a second one (its own engine load and preparation, for half the options) made a cold
   * `initial` slower and costlier on a 2-core machine (docs/startup.md).
   */
  async computing(dpeArg: string): Promise<{ dpeId: string; backend: Backend }> {
    const dpeId = await this.dpeArg(dpeArg, { startEngine: true });
    return { dpeId, backend: await this.backend({ startEngine: true }) };
  }

  /** The local services (store of --data-dir): `serve` and `keys`. */
  localServices(overrides: Partial<LocalConfig> = {}): Promise<LocalServices> {
    this.services ??= import('../compose.js').then((m) =>
      m.composeLocal({ ...this.localConfig, ...overrides }),
    );
    return this.services;
  }

  /** What the composition root needs for the remote backend; exit 2/4 naming what is missing. */
  get remoteConfig(): RemoteConfig {
    const s = this.settings;
    if (!s.baseUrl) {
      throw new DpeSimError(
        'invalid-input',
        'the remote backend needs a base URL: --base-url URL, DPE_SIM_BASE_URL, or `dpe-sim config set baseUrl URL`',
      );
    }
    if (!s.partnerKey) {
      throw new DpeSimError(
        'auth',
        'the remote backend needs a partner key: --partner-key-file FILE, DPE_SIM_PARTNER_KEY, or `dpe-sim config set partnerKey KEY`',
      );
    }
    return {
      baseUrl: s.baseUrl,
      partnerKey: s.partnerKey,
      timeoutMs: s.timeout * 1000,
      retries: s.retries,
      historyPath: s.historyPath,
    };
  }

  private async openBackend(startEngine: boolean): Promise<ComposedBackend> {
    const compose = await import('../compose.js');
    if (this.settings.backend === 'remote') return compose.composeRemoteBackend(this.remoteConfig);
    // the engine on a thread of its own: this one stays free to hear Ctrl-C (started now for a
    // command that computes, else on first use)
    return compose.composeLocalBackend({
      ...this.localConfig,
      engineThreads: 1,
      ...(startEngine ? { engineEager: true } : {}),
    });
  }

  /**
   * The positional DPE argument: a registry number, a path to an XML file, or `-` for stdin.
   * Returns the dpeId to send to the backend (a file is made known to the local backend).
   * `needs`: what the command wants of the backend, if this composes it (see `computing`).
   */
  async dpeArg(arg: string, needs: { startEngine?: boolean } = {}): Promise<string> {
    if (DPE_ID_REGEX.test(arg)) return arg;
    const isPathLike =
      arg === '-' ||
      arg.includes('/') ||
      arg.includes('\\') ||
      /\.xml$/i.test(arg) ||
      existsSync(arg); // a file or directory named without ./ is a path all the same
    if (!isPathLike) {
      throw new DpeSimError(
        'invalid-input',
        `'${arg}' is not a DPE number: expected the pattern ${DPE_ID_PATTERN} (e.g. 2345E0123456A), or a path to a DPE XML file, or - for stdin`,
      );
    }
    const backend = await this.backend(needs);
    return backend.openDpe(
      arg === '-' ? { text: await readStdin(MAX_DPE_XML_BYTES), name: '-' } : { path: arg },
    );
  }

  async close(): Promise<void> {
    const composed = await this.composed?.catch(() => undefined);
    await composed?.close();
    const services = await this.services?.catch(() => undefined);
    await services?.close();
  }
}
