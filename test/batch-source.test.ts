/**
 * A batch's source counts its head (how many engine threads are worth starting): blank lines and
 * comments are not items, the count stops at the limit, a directory counts its XML files only.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSource } from '../src/batch/source.js';
import { tempDir } from './helpers.js';

describe('batch source head count', () => {
  it('a list file: items only, up to the limit', async () => {
    const dir = tempDir();
    const list = path.join(dir, 'list.txt');
    writeFileSync(list, '# numbers\n\n2535E0426429Q\n  \n2206E1133029I\n2321E0998807O\n');
    const source = await openSource(list);
    expect(await source.countUpTo(2)).toBe(2);
    expect(await source.countUpTo(8)).toBe(3);
    expect(await source.count()).toBe(3);
    writeFileSync(list, '# only a comment\n');
    expect(await (await openSource(list)).countUpTo(2)).toBe(0);
  });

  it('a directory: its XML files, up to the limit', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'sub.xml'));
    writeFileSync(path.join(dir, 'a.xml'), '<dpe/>');
    writeFileSync(path.join(dir, 'notes.txt'), 'x');
    const source = await openSource(dir);
    expect(await source.countUpTo(2)).toBe(1);
    writeFileSync(path.join(dir, 'b.XML'), '<dpe/>');
    writeFileSync(path.join(dir, 'c.xml'), '<dpe/>');
    expect(await source.countUpTo(2)).toBe(2);
    expect(await source.count()).toBe(3);
  });
});
