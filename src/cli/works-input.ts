/** Works from the command line: `--work ref=KEY:VALUE` items and `--works FILE` (JSON). */
import { readInputFile } from '../contract/input-file.js';
import { DpeSimError } from '../contract/errors.js';
import { hasControlChar, jsonSyntaxReason } from '../contract/text.js';
import type { EditableChange } from '../contract/schemas.js';
import { readStdin } from './stdin.js';

const WORK_RE = /^([a-z_]+:\d+)=([^:=]+):(.+)$/;

export function parseWorkFlag(text: string): EditableChange {
  if (hasControlChar(text)) {
    throw new DpeSimError(
      'invalid-input',
      '--work must not contain control characters (NUL, CR, LF, tab, ESC...)',
      { field: 'work', reason: 'control-character' },
    );
  }
  const m = WORK_RE.exec(text.trim());
  if (!m) {
    throw new DpeSimError(
      'invalid-input',
      `--work '${text}' is not of the form <referenceId>=<editableKey>:<editableValue> (e.g. mur:0=ISOLATION:IMurITE37)`,
    );
  }
  return {
    referenceId: m[1] as string,
    editableKey: m[2] as string,
    editableValue: m[3] as string,
  };
}

export async function readWorksFile(file: string): Promise<EditableChange[]> {
  let text: string;
  try {
    text =
      file === '-'
        ? await readStdin()
        : (await readInputFile(file, { what: 'the works file' })).text;
  } catch (err) {
    if (err instanceof DpeSimError) throw err;
    throw new DpeSimError(
      'invalid-input',
      `cannot read the works file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new DpeSimError(
      'invalid-input',
      `the works file ${file} is not valid JSON: ${jsonSyntaxReason(err)}`,
    );
  }
  // the contract's schemas load TypeBox: only when a works file is read
  const [{ default: Type }, schemas, { parseBody }] = await Promise.all([
    import('typebox'),
    import('../contract/schemas.js'),
    import('../contract/validate.js'),
  ]);
  return parseBody(Type.Array(schemas.EditableChange), json, `the works file ${file}`);
}

export function workFlags(changes: readonly EditableChange[]): string {
  return changes
    .map((c) => `--work ${c.referenceId}=${c.editableKey}:${c.editableValue}`)
    .join(' ');
}
