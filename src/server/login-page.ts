/**
 * `/public/partnerLogin.html`: the workbench the login URLs point to (issue 37). The page is a
 * shell: its script and style are files of the server (`/public/workbench.js`, built from
 * src/web/ by scripts/bundle-web.mjs into dist/web/), so the Content-Security-Policy allows
 * `'self'` and nothing inline, and nothing comes from elsewhere (it works offline). The script
 * reads `partnerToken`, removes it from the address bar, uses it once through
 * `POST /public/api/login` (which sets the session cookie), then talks to the session routes
 * (`routes/workbench-routes.ts`).
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const LOGIN_PAGE_PATH = '/public/partnerLogin.html';

export const LOGIN_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>DPE workbench</title>
<link rel="icon" href="workbench.svg" type="image/svg+xml">
<link rel="stylesheet" href="workbench.css">
<script type="module" src="workbench.js"></script>
</head>
<body>
<div id="app"><main class="page"><p class="muted" id="loading">Loading the workbench…</p></main></div>
<noscript><p>The workbench needs JavaScript.</p></noscript>
</body>
</html>
`;

/** Headers every response of the page and its files carry. */
const COMMON_HEADERS: Record<string, string> = {
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** The page: only its own files run and style it, nothing is cached. */
export const LOGIN_PAGE_HEADERS: Record<string, string> = {
  ...COMMON_HEADERS,
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
};

export interface PageAsset {
  body: string;
  headers: Record<string, string>;
}

const ASSETS: Record<string, string> = {
  'workbench.js': 'text/javascript; charset=utf-8',
  'workbench.css': 'text/css; charset=utf-8',
  'workbench.svg': 'image/svg+xml',
};
export const ASSET_NAMES = Object.keys(ASSETS);

/**
 * dist/web/ (built by `npm run build`): beside this module once compiled (dist/server/), or
 * under the project's dist/ when it runs from its sources (the tests).
 */
function webDir(): string {
  const built = new URL('../web/', import.meta.url);
  if (existsSync(new URL('workbench.js', built))) return fileURLToPath(built);
  return fileURLToPath(new URL('../../dist/web/', import.meta.url));
}

const cache = new Map<string, Promise<PageAsset>>();

/** A file of the page, read once; `not built` as a clear 500 when dist/web/ is missing. */
export function pageAsset(name: string): Promise<PageAsset> | undefined {
  const type = ASSETS[name];
  if (!type) return undefined;
  let found = cache.get(name);
  if (!found) {
    found = readFile(`${webDir()}${name}`, 'utf8').then(
      (body) => ({
        body,
        headers: { ...COMMON_HEADERS, 'content-type': type, 'cache-control': 'no-cache' },
      }),
      (err: unknown) => {
        cache.delete(name);
        throw new Error(
          `the workbench's ${name} is not built (${(err as Error).message}): run npm run build`,
        );
      },
    );
    cache.set(name, found);
  }
  return found;
}
