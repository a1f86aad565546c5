import { DpeSimError, EXIT_CODES } from '../../contract/errors.js';
import { redactUrl } from '../../store/open.js';
import { SETTING_KEYS, isSettingKey, maskKey, type SettingKey } from '../../config/config.js';
import { readStdin, type Context } from '../context.js';

function settingKey(key: string): SettingKey {
  if (!isSettingKey(key)) {
    throw new DpeSimError(
      'invalid-input',
      `unknown setting '${key}': use one of ${SETTING_KEYS.join(', ')}`,
    );
  }
  return key;
}

/** A value as it may be shown: the partner key only by its last 4 characters. */
function shown(key: SettingKey, value: string): string {
  if (key === 'storeUrl' || key === 'queueUrl') return redactUrl(value);
  return key === 'partnerKey' ? maskKey(value) : value;
}

export async function configSetCommand(
  ctx: Context,
  keyArg: string,
  valueArg: string | undefined,
): Promise<number> {
  const key = settingKey(keyArg);
  let value = valueArg;
  if (value === undefined || value === '-') {
    if (process.stdin.isTTY) {
      throw new DpeSimError(
        'invalid-input',
        `give a value: dpe-sim config set ${key} VALUE (or pipe it on stdin)`,
      );
    }
    value = (await readStdin()).trim();
  }
  if (value === '') throw new DpeSimError('invalid-input', `the value of ${key} is empty`);
  const profile = ctx.settings.profile;
  ctx.config.set(profile, key, value);
  ctx.out.note(`Set ${key} = ${shown(key, value)} in profile '${profile}' (${ctx.config.file})`);
  return EXIT_CODES.ok;
}

export async function configGetCommand(ctx: Context, keyArg: string): Promise<number> {
  const key = settingKey(keyArg);
  const profile = ctx.settings.profile;
  const value = ctx.config.profile(profile)[key];
  if (value === undefined) {
    ctx.out.note(`${key} is not set in profile '${profile}'`);
    return EXIT_CODES.runtime;
  }
  ctx.out.result({ [key]: shown(key, value) }, () => shown(key, value));
  return EXIT_CODES.ok;
}

export async function configListCommand(ctx: Context): Promise<number> {
  const profile = ctx.settings.profile;
  const stored = ctx.config.profile(profile);
  const entries = SETTING_KEYS.flatMap((k) => {
    const v = stored[k];
    return v === undefined ? [] : [[k, shown(k, v)] as const];
  });
  ctx.out.result(Object.fromEntries(entries), () =>
    entries.length ? entries.map(([k, v]) => `${k}=${v}`).join('\n') : '(no settings)',
  );
  const others = ctx.config.profiles().filter((p) => p !== profile);
  ctx.out.note(
    `Profile '${profile}'${profile === ctx.config.currentProfile() ? ' (active)' : ''}${others.length ? `; other profiles: ${others.join(', ')}` : ''}; file ${ctx.config.file}`,
  );
  return EXIT_CODES.ok;
}

export async function configUnsetCommand(ctx: Context, keyArg: string): Promise<number> {
  const key = settingKey(keyArg);
  const profile = ctx.settings.profile;
  const removed = ctx.config.unset(profile, key);
  ctx.out.note(
    removed
      ? `Removed ${key} from profile '${profile}'`
      : `${key} was not set in profile '${profile}'`,
  );
  return EXIT_CODES.ok;
}

export async function configUseCommand(ctx: Context, profile: string): Promise<number> {
  const known = ctx.config.profiles().includes(profile);
  ctx.config.use(profile);
  ctx.out.note(
    `Active profile: ${profile}${known ? '' : ' (new: give it settings with dpe-sim config set KEY VALUE)'}`,
  );
  return EXIT_CODES.ok;
}
