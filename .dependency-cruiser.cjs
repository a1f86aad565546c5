/**
 * The directions of dpe-sim's code, checked by `npm run lint` (dependency-cruiser):
 *   front doors (cli/, server/, batch/) → compose.ts → backend/ → simulation/ → works/ →
 *   engine/ → dpe/, with contract/ (and config/) usable from everywhere and importing nothing
 *   of the domain; queue/ (the distributed batch) under the CLI, beside batch/; process/ and
 *   pool/ (process plumbing: stop signals, worker threads) under everyone, above nothing but
 *   contract/; web/ (the workbench page, run in the browser) above contract/ only. Every
 *   folder of src/ is named by a rule below. See README, "Architecture".
 */
const FRONT = '^src/(cli|server|batch)/';
const DOMAIN = '^src/(simulation|works|engine|dpe|registry|store)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'front-doors-use-the-backend',
      severity: 'error',
      comment:
        'The CLI, the server and batch reach the domain only through backend/ (and compose.ts): never simulation/, works/, engine/, dpe/, registry/ or store/ directly.',
      from: { path: FRONT },
      to: { path: DOMAIN },
    },
    {
      name: 'only-engine-imports-open3cl',
      severity: 'error',
      comment: 'engine/ is the one adapter of @open3cl/engine.',
      from: { pathNot: '^src/engine/' },
      to: { path: 'node_modules/@open3cl/engine' },
    },
    {
      name: 'only-store-opens-databases',
      severity: 'error',
      comment:
        'store/ is the only place that writes state (SQLite, PostgreSQL); queue/ (the distributed batch) talks to its job queue (graphile-worker on PostgreSQL).',
      from: { pathNot: '^src/(store|queue)/' },
      to: { path: 'node_modules/(better-sqlite3|pg|postgres|graphile-worker)/' },
    },
    {
      name: 'only-config-opens-the-config-file',
      severity: 'error',
      from: { pathNot: '^src/config/' },
      to: { path: 'node_modules/conf/' },
    },
    {
      name: 'contract-depends-on-nothing-of-ours',
      severity: 'error',
      comment: 'contract/ is used by all and uses none of the rest.',
      from: { path: '^src/contract/' },
      to: { path: '^src/', pathNot: '^src/contract/' },
    },
    {
      name: 'domain-does-not-import-front-doors',
      severity: 'error',
      from: {
        path: '^src/(backend|simulation|works|engine|dpe|registry|store|config|contract|process|pool)/',
      },
      to: { path: FRONT },
    },
    {
      name: 'backend-is-below-compose',
      severity: 'error',
      from: { path: '^src/(backend|simulation|works|engine|dpe|registry|store)/' },
      to: { path: '^src/compose\\.ts$' },
    },
    {
      name: 'simulation-is-below-backend',
      severity: 'error',
      from: { path: '^src/simulation/' },
      to: { path: '^src/(backend)/' },
    },
    {
      name: 'works-is-below-simulation',
      severity: 'error',
      from: { path: '^src/works/' },
      to: { path: '^src/(backend|simulation)/' },
    },
    {
      name: 'engine-is-below-works',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^src/(backend|simulation|works|store|registry)/' },
    },
    {
      name: 'dpe-is-the-bottom',
      severity: 'error',
      from: { path: '^src/dpe/' },
      to: { path: '^src/(backend|simulation|works|engine|store|registry)/' },
    },
    {
      name: 'queue-serves-the-cli',
      severity: 'error',
      comment:
        'queue/ (the distributed batch) is driven by the CLI (batch --queue, status, results, worker) and by nothing else.',
      from: { pathNot: '^src/(cli|queue)/' },
      to: { path: '^src/queue/' },
    },
    {
      name: 'queue-is-below-the-cli',
      severity: 'error',
      comment:
        "queue/ runs items with batch/'s code and stores them with store/'s PostgreSQL helpers; it never reaches up to the CLI, the server or compose.ts, nor into the domain but through batch/.",
      from: { path: '^src/queue/' },
      to: {
        path: '^src/(cli|server|backend|simulation|works|engine|dpe|registry)/|^src/compose\\.ts$',
      },
    },
    {
      name: 'queue-uses-only-the-pg-plumbing-of-store',
      severity: 'error',
      from: { path: '^src/queue/' },
      to: { path: '^src/store/', pathNot: '^src/store/(pg-migrate|open)\\.ts$' },
    },
    {
      name: 'web-is-the-browser',
      severity: 'error',
      comment:
        'web/ is the workbench page, bundled for the browser (scripts/bundle-web.mjs): it talks to the server over HTTP and imports nothing of ours but contract/ (types).',
      from: { path: '^src/web/' },
      to: { path: '^src/', pathNot: '^src/(web|contract)/' },
    },
    {
      name: 'nothing-imports-web',
      severity: 'error',
      comment: 'web/ runs in the browser only: the server serves its built files from dist/web/.',
      from: { pathNot: '^src/web/' },
      to: { path: '^src/web/' },
    },
    {
      name: 'process-plumbing-imports-no-layer',
      severity: 'error',
      comment:
        'process/ (stop signals) and pool/ (worker threads) are used by the front doors and backend/; they import nothing of ours but contract/.',
      from: { path: '^src/(process|pool)/' },
      to: { path: '^src/', pathNot: '^src/(process|pool|contract)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: { path: ['^src/', 'node_modules'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
      extensions: ['.ts', '.tsx', '.cts', '.js', '.cjs', '.mjs', '.json'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
