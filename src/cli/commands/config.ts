import { DpeSimError, EXIT_CODES } from '../../contract/errors.js';
import { didYouMean } from '../../contract/did-you-mean.js';
import {
  SETTING_KEYS,
  isSettingKey,
  maskKey,
  redactUrl,
  type SettingKey,
} from '../../config/keys.js';
import type { Command } from 'commander';
import { subcommands } from '../command-kit.js';
import type { Context } from '../context.js';
import { readStdin } from '../stdin.js';

function settingKey(key: string, verb: string): SettingKey {
  if (!isSettingKey(key)) {
    // `dpedir` → dpeDir: the closest setting when close enough (case, a letter or two)
    const near = didYouMean(key, SETTING_KEYS);
    throw new DpeSimError(
      'invalid-input',
      near
        ? `unknown setting '${key}'; did you mean '${near}'?`
        : `unknown setting '${key}': use one of ${SETTING_KEYS.join(', ')}`,
      {
        setting: key,
        ...(near
          ? {
              didYouMean: near,
              hint: `dpe-sim config ${verb} ${near}${verb === 'set' ? ' VALUE' : ''} (the settings: ${SETTING_KEYS.join(', ')})`,
            }
          : {}),
      },
    );
  }
  return key;
}

/** Every `config` subcommand first says when the file holding a key is open to others. */
function warnLoose(ctx: Context): void {
  for (const w of ctx.config.permissionWarnings()) ctx.out.note(w);
}

/** A value as it may be shown: the partner key only by its last 4 characters. */
function shown(key: SettingKey, value: string): string {
  if (key === 'partnerKey') return maskKey(value);
  return key === 'storeUrl' || key === 'queueUrl' ? redactUrl(value) : value;
}

export async function configSetCommand(
  ctx: Context,
  keyArg: string,
  valueArg: string | undefined,
): Promise<number> {
  const key = settingKey(keyArg, 'set');
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
  await ctx.config.set(profile, key, value);
  warnLoose(ctx);
  ctx.out.note(`Set ${key} = ${shown(key, value)} in profile '${profile}' (${ctx.config.file})`);
  return EXIT_CODES.ok;
}

export async function configGetCommand(ctx: Context, keyArg: string): Promise<number> {
  warnLoose(ctx);
  const key = settingKey(keyArg, 'get');
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
  warnLoose(ctx);
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
  warnLoose(ctx);
  const key = settingKey(keyArg, 'unset');
  const profile = ctx.settings.profile;
  const removed = await ctx.config.unset(profile, key);
  ctx.out.note(
    removed
      ? `Removed ${key} from profile '${profile}'`
      : `${key} was not set in profile '${profile}'`,
  );
  return EXIT_CODES.ok;
}

export async function configUseCommand(ctx: Context, profile: string): Promise<number> {
  warnLoose(ctx);
  const known = ctx.config.profiles().includes(profile);
  await ctx.config.use(profile);
  ctx.out.note(
    `Active profile: ${profile}${known ? '' : ' (new: give it settings with dpe-sim config set KEY VALUE)'}`,
  );
  return EXIT_CODES.ok;
}

export function register(program: Command): void {
  subcommands(
    program
      .command('config')
      .description('settings and profiles (--profile NAME, or the one chosen with `config use`)'),
    [
      {
        name: 'set',
        args: [
          ['<key>', 'setting name (see `dpe-sim config --help`)'],
          ['[value]', 'value (omitted or -: read from stdin, e.g. for partnerKey)'],
        ],
        description: 'set a setting in the active profile',
        examples: [
          'dpe-sim config set baseUrl https://partner.example.com',
          'dpe-sim config set partnerKey < acme.key',
          'dpe-sim --profile staging config set backend remote',
        ],
        action: configSetCommand,
      },
      {
        name: 'get',
        args: [['<key>', 'setting name']],
        description: 'print a setting of the active profile (partnerKey masked); exit 1 when unset',
        examples: ['dpe-sim config get baseUrl'],
        action: configGetCommand,
      },
      {
        name: 'list',
        description: 'print the settings of the active profile (partnerKey masked)',
        examples: ['dpe-sim --profile staging config list --json'],
        action: configListCommand,
      },
      {
        name: 'unset',
        args: [['<key>', 'setting name']],
        description: 'remove a setting from the active profile',
        examples: ['dpe-sim config unset partnerKey'],
        action: configUnsetCommand,
      },
      {
        name: 'use',
        args: [['<profile>', 'profile name']],
        description: 'make a profile the active one (--profile and DPE_SIM_PROFILE still win)',
        examples: ['dpe-sim config use staging'],
        action: configUseCommand,
      },
    ],
  ).addHelpText(
    'after',
    `
Settings: ${SETTING_KEYS.join(', ')}.
Precedence: flag > environment (DPE_SIM_*) > profile > default.`,
  );
}
