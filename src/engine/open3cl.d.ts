// @open3cl/engine ships no type declarations; the adapter (engine.ts) types what it uses.
declare module '@open3cl/engine';
declare module '@open3cl/engine/utils.js';
declare module '@open3cl/engine/tv.js';
declare module '@open3cl/engine/enums.js';
declare module '@open3cl/engine/7_inertie.js';
declare module '@open3cl/engine/core/util/logger/log-service.js';
declare module '@open3cl/engine/3.3_baie_vitree.js';
declare module '@open3cl/engine/dpe-sanitizer.service.js';
declare module '@open3cl/engine/ficheTechnique.js';
