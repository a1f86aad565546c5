/**
 * Commands of the partner API's server side: `serve`, `keys`, `config`.
 * (Registered from main.ts; actions load on demand.)
 */
import type { Command } from 'commander';
import { run } from './command-kit.js';

export function registerApiCommands(program: Command): void {
  program
    .command('serve')
    .description(
      'serve the partner API over HTTP on the bundled engine (DPEs from --dpe-dir, state in --data-dir)',
    )
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '8787')
    .option(
      '--history-path <path>',
      'path of the consumption-history operation (default /partners/tracking/history)',
    )
    .option('--access-log', 'one line per request on stderr (never keys or tokens)')
    .addHelpText(
      'after',
      `
Uses the global --dpe-dir, --data-dir and --app-url (login URLs; default: this server's URL).
Prints "listening on <url>" on stderr. Create a partner key first with \`dpe-sim keys create NAME\`.

Example:
  dpe-sim keys create acme > acme.key
  dpe-sim serve --port 8787 --dpe-dir ./dpes
  curl -H "Authorization: Bearer $(cat acme.key)" http://127.0.0.1:8787${'/partners/tracking/history'}`,
    )
    .action(run(async () => (await import('./commands/serve.js')).serveCommand));

  const keys = program
    .command('keys')
    .description("partner keys of the local server (stored hashed in --data-dir's store)");
  keys
    .command('create')
    .argument('<name>', 'partner name (letters, digits, ".", "_", "-")')
    .description('create a partner and its key; the key is printed once, on stdout')
    .addHelpText('after', '\nExample:\n  dpe-sim keys create acme > acme.key')
    .action(run(async () => (await import('./commands/keys.js')).keysCreateCommand));
  keys
    .command('list')
    .description('list partners: name, last 4 characters of the key, created, revoked')
    .addHelpText('after', '\nExample:\n  dpe-sim keys list --json')
    .action(run(async () => (await import('./commands/keys.js')).keysListCommand));
  keys
    .command('revoke')
    .argument('<name>', 'partner name')
    .description('revoke a partner key (its requests get 401 from then on)')
    .addHelpText('after', '\nExample:\n  dpe-sim keys revoke acme')
    .action(run(async () => (await import('./commands/keys.js')).keysRevokeCommand));

  const config = program
    .command('config')
    .description('settings and profiles (--profile NAME, or the one chosen with `config use`)');
  config
    .command('set')
    .argument('<key>', 'setting name (see `dpe-sim config --help`)')
    .argument('[value]', 'value (omitted or -: read from stdin, e.g. for partnerKey)')
    .description('set a setting in the active profile')
    .addHelpText(
      'after',
      '\nExamples:\n  dpe-sim config set baseUrl https://partner.example.com\n  dpe-sim config set partnerKey < acme.key\n  dpe-sim --profile staging config set backend remote',
    )
    .action(run(async () => (await import('./commands/config.js')).configSetCommand));
  config
    .command('get')
    .argument('<key>', 'setting name')
    .description('print a setting of the active profile (partnerKey masked); exit 1 when unset')
    .addHelpText('after', '\nExample:\n  dpe-sim config get baseUrl')
    .action(run(async () => (await import('./commands/config.js')).configGetCommand));
  config
    .command('list')
    .description('print the settings of the active profile (partnerKey masked)')
    .addHelpText('after', '\nExample:\n  dpe-sim --profile staging config list --json')
    .action(run(async () => (await import('./commands/config.js')).configListCommand));
  config
    .command('unset')
    .argument('<key>', 'setting name')
    .description('remove a setting from the active profile')
    .addHelpText('after', '\nExample:\n  dpe-sim config unset partnerKey')
    .action(run(async () => (await import('./commands/config.js')).configUnsetCommand));
  config
    .command('use')
    .argument('<profile>', 'profile name')
    .description('make a profile the active one (--profile and DPE_SIM_PROFILE still win)')
    .addHelpText('after', '\nExample:\n  dpe-sim config use staging')
    .action(run(async () => (await import('./commands/config.js')).configUseCommand));
  config.addHelpText(
    'after',
    `
Settings: backend, baseUrl, partnerKey, appUrl, dpeDir, dataDir, customerId, userId, userName,
  customerName, costs, timeout, retries, historyPath, storeUrl, queueUrl.
Precedence: flag > environment (DPE_SIM_*) > profile > default.`,
  );
}
