/* eslint @typescript-eslint/no-unused-vars: ["error", { "varsIgnorePattern": "^(__dpeSimChEcs|__dpeSimChEcsIds)$" }] */
/**
 * Appended to `9_generateur_ch.js` (marker `__dpeSimChEcs`). A generator for heating and hot
 * water ("chauffage + ecs") lists the generator types common to both enums (each type's label
 * looked for among the other enum's ~130 labels, `Object.values` built for each: 4% of a run on
 * buildings with such generators): the list depends on the enums only and is built once (the
 * anchors assign these with `??=`). The same in `14_generateur_ecs.js` (generateur-ecs-ch.js).
 */
let __dpeSimChEcs;
let __dpeSimChEcsIds;
