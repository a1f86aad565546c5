/**
 * A DPE XML larger than the limit (10 MiB) is refused before it is parsed, with exit 2 and a
 * message giving its size and the limit: a file, stdin, a batch item, the registry's answer.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DPE_XML_BYTES } from '../src/contract/constants.js';
import { DpeSimError } from '../src/contract/errors.js';
import { RegistryClient } from '../src/registry/client.js';
import { HOUSE, runCli, tempDir } from './helpers.js';
import { renumbered, REG, startStandIn, type StandIn } from './registry-standin.js';

const LIMIT_TEXT = '10\u202f485\u202f760 bytes (10 MiB)';

/** The bundled house padded with a comment to `size` bytes (a valid XML document). */
function paddedHouse(size: number, xml = readFileSync(HOUSE, 'utf8')): string {
  const end = xml.lastIndexOf('</dpe>');
  const fill = size - Buffer.byteLength(xml) - '<!--'.length - '-->'.length;
  return `${xml.slice(0, end)}<!--${'x'.repeat(fill)}-->${xml.slice(end)}`;
}

const BIG = MAX_DPE_XML_BYTES + 1;

describe('a DPE XML over the limit', () => {
  let dir: string;
  let big: string;
  beforeAll(() => {
    dir = tempDir('dpe-sim-size-');
    big = path.join(dir, 'big.xml');
    writeFileSync(big, paddedHouse(BIG));
  });

  it('a file: exit 2 naming the file, its size and the limit', async () => {
    const r = await runCli(['pre', big]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(
      `error: the file ${big} is 10\u202f485\u202f761 bytes: larger than the limit for a DPE XML, ${LIMIT_TEXT}`,
    );
  });

  it('a file just under the limit is read (the refusal is the size, not the padding)', async () => {
    const ok = path.join(dir, 'under.xml');
    writeFileSync(ok, paddedHouse(MAX_DPE_XML_BYTES - 1024));
    const r = await runCli(['pre', ok, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('maxCalculation');
  });

  it('stdin: exit 2, reading stops past the limit', async () => {
    const r = await runCli(['initial', '-'], { input: paddedHouse(BIG + 4 * 65536) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        `^error: stdin is at least [0-9\u202f]+ bytes: larger than the limit for a DPE XML, ${LIMIT_TEXT.replace(/[()]/g, '\\$&')}\n`,
      ),
    );
  });

  it('a batch item: that item fails with exit code 2 and kind too-large, the others run', async () => {
    const items = tempDir('dpe-sim-size-batch-');
    writeFileSync(path.join(items, 'a-big.xml'), paddedHouse(BIG));
    writeFileSync(path.join(items, 'b-house.xml'), readFileSync(HOUSE));
    const r = await runCli(['batch', 'pre', items]);
    expect(r.code).toBe(1);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as {
            file: string;
            status: string;
            exitCode: number;
            error?: { kind: string; message: string };
          },
      )
      .sort((a, b) => a.file.localeCompare(b.file));
    expect(lines.map((l) => [path.basename(l.file), l.status, l.exitCode, l.error?.kind])).toEqual([
      ['a-big.xml', 'failed', 2, 'too-large'],
      ['b-house.xml', 'ok', 0, undefined],
    ]);
    expect(lines[0]?.error?.message).toContain('10\u202f485\u202f761 bytes');
  });
});

describe("the registry's answer over the limit", () => {
  let reg: StandIn;
  const BIG_ID = '2535E0000010G';
  beforeAll(async () => {
    reg = await startStandIn();
    reg.xml.set(BIG_ID, paddedHouse(BIG, renumbered(HOUSE, BIG_ID)));
  });
  afterAll(() => reg?.close());

  it('pre by number: exit 2 with the size and the limit, nothing cached', async () => {
    const dataDir = tempDir();
    const r = await runCli(['pre', BIG_ID], {
      dataDir,
      env: { DPE_SIM_OFFLINE: undefined, DPE_SIM_REGISTRY_URL: reg.base },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`the registry's answer for DPE ${BIG_ID}`);
    expect(r.stderr).toContain(`larger than the limit for a DPE XML, ${LIMIT_TEXT}`);
    expect(reg.hits.get(BIG_ID)).toBe(1); // refused, not retried
    const cached = await runCli(['cache', 'list', '--json'], { dataDir });
    expect(cached.stdout).not.toContain(BIG_ID);
  });

  it('an answer without Content-Length is cut off once past the limit', async () => {
    let pulled = 0;
    const chunk = new Uint8Array(1024 * 1024).fill(0x20);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 64) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const client = new RegistryClient({
      url: 'http://registry.invalid/{numero}',
      timeoutMs: 5_000,
      retries: 2,
      backoffMs: 1,
      fetch: () =>
        Promise.resolve(
          new Response(body, { status: 200, headers: { 'content-type': 'application/xml' } }),
        ),
    });
    const err = await client.fetchDpe(REG.house).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DpeSimError);
    expect((err as DpeSimError).kind).toBe('too-large');
    expect((err as DpeSimError).exitCode).toBe(2);
    expect((err as DpeSimError).details).toEqual({
      size: 11 * 1024 * 1024,
      limit: MAX_DPE_XML_BYTES,
    });
    expect(pulled).toBeLessThan(20); // the other 50 MB were never asked for
  });
});
