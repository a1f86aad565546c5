/**
 * What every command needs: the resolved settings, the identity, a Backend (local or remote),
 * the DPE argument resolved, and the output conventions (--json, colour, stderr messages).
 */
import { readFile } from 'node:fs/promises';
import { DpeSimError } from '../contract/errors.js';
import { DPE_ID_PATTERN, DPE_ID_REGEX } from '../contract/constants.js';
import type { PartnerIdentity } from '../contract/schemas.js';
import {
  ConfigStore,
  resolveSettings,
  type Settings,
  type SettingFlags,
} from '../config/config.js';
import type { Backend } from '../backend/backend.js';
import { DirectoryDpeSource, OverlayDpeSource, keyForText, readDpeFile } from '../dpe/source.js';
import { colourEnabled, makeStyle, type Style } from './render/style.js';

export interface GlobalOptions {
  json?: boolean;
  color?: boolean;
  verbose?: boolean;
  input?: boolean;
  backend?: string;
  baseUrl?: string;
  partnerKeyFile?: string;
  profile?: string;
  configDir?: string;
  dataDir?: string;
  store?: string;
  queue?: string;
  dpeDir?: string;
  appUrl?: string;
  customerId?: string;
  userId?: string;
  userName?: string;
  customerName?: string;
  costs?: string;
  timeout?: string;
  retries?: string;
}

export class Output {
  readonly style: Style;
  constructor(
    readonly json: boolean,
    color: boolean | undefined,
  ) {
    this.style = makeStyle(!json && colourEnabled({ ...(color === undefined ? {} : { color }) }));
  }

  /** The response body as JSON on stdout (--json), or the human rendering. */
  result(body: unknown, human: () => string): void {
    if (this.json) process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    else process.stdout.write(`${human()}\n`);
  }

  /** A message for humans, on stderr (never pollutes --json output). */
  note(message: string): void {
    process.stderr.write(`${message}\n`);
  }
}

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function readPartnerKeyFile(file: string): Promise<string> {
  try {
    const text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
    const key = text.trim();
    if (!key) throw new DpeSimError('invalid-input', `the partner key file ${file} is empty`);
    return key;
  } catch (err) {
    if (err instanceof DpeSimError) throw err;
    throw new DpeSimError(
      'invalid-input',
      `cannot read the partner key file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
}

export class Context {
  private backendPromise: Promise<Backend> | undefined;
  private overlay: OverlayDpeSource | undefined;
  private cleanup: (() => Promise<void> | void)[] = [];

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
    };
    if (opts.partnerKeyFile !== undefined)
      flags.partnerKey = await readPartnerKeyFile(opts.partnerKeyFile);
    const settings = resolveSettings(flags, config);
    return new Context(opts, settings, config, new Output(Boolean(opts.json), opts.color));
  }

  get identity(): PartnerIdentity {
    const s = this.settings;
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

  backend(): Promise<Backend> {
    this.backendPromise ??= this.openBackend();
    return this.backendPromise;
  }

  private async openBackend(): Promise<Backend> {
    const s = this.settings;
    if (s.backend === 'remote') {
      const { RemoteBackend } = await import('../backend/remote.js');
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
      return new RemoteBackend({
        baseUrl: s.baseUrl,
        partnerKey: s.partnerKey,
        timeoutMs: s.timeout * 1000,
        retries: s.retries,
        historyPath: s.historyPath,
      });
    }
    const [{ openStore }, { LocalServices }, { loadCosts }] = await Promise.all([
      import('../store/open.js'),
      import('../backend/local.js'),
      import('../works/costs.js'),
    ]);
    const store = await openStore(s);
    this.cleanup.push(() => store.close());
    this.overlay = new OverlayDpeSource(new DirectoryDpeSource(s.dpeDir));
    const services = new LocalServices({
      store,
      source: this.overlay,
      appUrl: s.appUrl,
      costs: loadCosts(s.costs),
    });
    return services.for(await store.localPartner());
  }

  /**
   * The positional DPE argument: a registry number (looked up in the DPE directory), a path to an
   * XML file, or `-` for stdin. Returns the dpeId to send to the backend.
   */
  async dpeArg(arg: string): Promise<string> {
    if (DPE_ID_REGEX.test(arg)) return arg;
    const isPathLike =
      arg === '-' || arg.includes('/') || arg.includes('\\') || /\.xml$/i.test(arg);
    if (!isPathLike) {
      throw new DpeSimError(
        'invalid-input',
        `'${arg}' is not a DPE number: expected the pattern ${DPE_ID_PATTERN} (e.g. 2345E0123456A), or a path to a DPE XML file, or - for stdin`,
      );
    }
    await this.backend();
    if (this.settings.backend === 'remote' || !this.overlay) {
      throw new DpeSimError(
        'invalid-input',
        'a DPE file works only with the local backend; the remote service knows DPEs by registry number',
      );
    }
    const doc =
      arg === '-'
        ? await readStdin().then((xml) => ({
            key: keyForText(xml, '-'),
            file: '-',
            xml,
            version: 0,
          }))
        : await readDpeFile(arg);
    this.overlay.add(doc);
    return doc.key;
  }

  async close(): Promise<void> {
    if (this.backendPromise) await (await this.backendPromise.catch(() => undefined))?.close();
    for (const fn of this.cleanup.splice(0)) await fn();
  }
}
