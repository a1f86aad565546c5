#!/usr/bin/env node
// Writes the OpenAPI document of `dpe-sim serve` (from the built dist/) to the file given, or to
// stdout: what `npm run lint:openapi` lints. Run `npm run build` first.
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../dist/contract/openapi.js';
import { DEFAULT_HISTORY_PATH } from '../dist/config/keys.js';

const text = `${JSON.stringify(openApiDocument({ historyPath: DEFAULT_HISTORY_PATH }), null, 2)}\n`;
const out = process.argv[2];
if (out) writeFileSync(out, text);
else process.stdout.write(text);
