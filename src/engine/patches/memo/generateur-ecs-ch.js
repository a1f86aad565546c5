/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(__dpeSimEcsCh|__dpeSimEcsChIds)$" }] */
/**
 * Appended to `14_generateur_ecs.js` (marker `__dpeSimEcsCh`): the generator types common to
 * heating and hot water, built once (see generateur-ch-ecs.js).
 */
let __dpeSimEcsCh;
let __dpeSimEcsChIds;
