/**
 * The engine's modules the adapter uses, in one place. Built, this file is the entry of the
 * engine bundle (`scripts/bundle-engine.mjs` → `dist/engine/open3cl.bundle.js`: the engine,
 * mathjs and lodash in one file, the memo patches applied at build time), which loads in about
 * a third of the time of the engine's 1,700 separate modules; without the bundle (tests on the
 * sources) the adapter imports this file and patches the modules as they load.
 */
export * as engine from '@open3cl/engine';
export * as utils from '@open3cl/engine/utils.js';
export * as tv from '@open3cl/engine/tv.js';
export * as enums from '@open3cl/engine/enums.js';
export * as inertie from '@open3cl/engine/7_inertie.js';
export * as log from '@open3cl/engine/core/util/logger/log-service.js';
export * as baie from '@open3cl/engine/3.3_baie_vitree.js';
export * as sanitizer from '@open3cl/engine/dpe-sanitizer.service.js';
export * as ficheTechnique from '@open3cl/engine/ficheTechnique.js';
