/**
 * The Q4Pa,conv thresholds (docs/scenario-search.md, "The Q4Pa,conv thresholds"): the engine reads
 * the air permeability from whether walls and ceilings are insulated over more area than not. The
 * option that tips that majority halves the leakage losses of the whole dwelling, which a sum of
 * savings alone (assumption S) cannot see: the cut search once "proved" bounds above a
 * combination that reaches the class. These tests run the engine on corpus DPEs where it did.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { EditableChange } from '../src/contract/schemas.js';
import { loadEngine, type Engine } from '../src/engine/engine.js';
import { generatorPairs, SUBADDITIVITY_MARGIN } from '../src/simulation/proof.js';
import { candidatesOf, searchScenarios } from '../src/simulation/scenarios.js';
import { Evaluator } from '../src/simulation/search.js';
import {
  airtightnessAfter,
  figuresOf,
  runWithAirtightness,
  runWorks,
} from '../src/simulation/runs.js';
import { criteriaOf } from '../src/works/airtightness.js';
import { corpusDpe, costs, frame, reaches, worksFigures } from './corpus-engine.js';
import { CORPUS, HAS_CORPUS } from './helpers.js';

let engine: Engine;

beforeAll(async () => {
  engine = await loadEngine();
});

const insulate = (ref: string, value: string): EditableChange => ({
  referenceId: ref,
  editableKey: 'ISOLATION',
  editableValue: value,
});

if (!HAS_CORPUS)
  console.warn(`\n⚠ Q4Pa,conv threshold corpus tests SKIPPED: no corpus at ${CORPUS}\n`);

describe.skipIf(!HAS_CORPUS)('the Q4Pa,conv insulated-area majority', () => {
  it('2287E1429874O: the third of three options tips the majority, S fails, and E is no longer "proved" above them', async () => {
    const prep = await corpusDpe(engine, '2287E1429874O');
    const three = [
      insulate('mur:1', 'IMurITI30'),
      insulate('mur:3', 'IMurITI30'),
      insulate('plancher_haut:1', 'IComblesR7'),
    ];
    // the engine's criterion, read from the works applied: not insulated before, insulated after
    expect(criteriaOf(airtightnessAfter(engine, prep, [], costs)).isolation).toBe('0');
    expect(criteriaOf(airtightnessAfter(engine, prep, three, costs)).isolation).toBe('1');
    // the three together save more primary energy than S allows from what each saves alone
    const base = worksFigures(engine, prep, []).o.after.ep;
    const alone = three.reduce(
      (s, c) => s + (base - worksFigures(engine, prep, [c]).o.after.ep),
      0,
    );
    const all = worksFigures(engine, prep, three);
    expect(base - all.o.after.ep).toBeGreaterThan((1 + (SUBADDITIVITY_MARGIN.ep ?? 0)) * alone);
    expect(reaches(all.o.classesAfter.dpe, 'E')).toBe(true);
    // forcing the DPE's own row changes nothing; forcing the insulated row saves energy
    const own = runWithAirtightness(engine, prep, [], costs, { isolation: '0', joints: '0' });
    const crossed = runWithAirtightness(engine, prep, [], costs, { isolation: '1', joints: '0' });
    expect(own && figuresOf(own, frame.coef).ep).toBe(
      figuresOf(runWorks(engine, prep, [], costs), frame.coef).ep,
    );
    expect(crossed && figuresOf(crossed, frame.coef).ep).toBeLessThan(
      figuresOf(runWorks(engine, prep, [], costs), frame.coef).ep,
    );
    // the scenario for E: its bound is at most what the three cost, and so is its cost
    const e = searchScenarios(engine, prep, { ...frame, costs }).solutions.find(
      (s) => s.classe === 'E',
    );
    expect(e).toBeDefined();
    expect(e?.lowerBound).toBeLessThanOrEqual(all.cout);
    expect(e?.cout).toBeLessThanOrEqual(all.cout);
    const again = worksFigures(engine, prep, e?.editables ?? []);
    expect(again.cout).toBe(e?.cout);
    expect(reaches(again.o.classesAfter.dpe, 'E')).toBe(true);
  });

  it('2387E0837391U: three walls lined inside reach F below the bound the search once proved (11,738 €)', async () => {
    const prep = await corpusDpe(engine, '2387E0837391U');
    const walls = ['mur:0', 'mur:1', 'mur:2'].map((r) => insulate(r, 'IMurITI30'));
    const all = worksFigures(engine, prep, walls);
    expect(reaches(all.o.classesAfter.dpe, 'F')).toBe(true);
    expect(all.cout).toBeLessThan(11_738);
    const f = searchScenarios(engine, prep, { ...frame, costs }).solutions.find(
      (s) => s.classe === 'F',
    );
    expect(f?.lowerBound).toBeLessThanOrEqual(all.cout);
    expect(f?.cout).toBeLessThanOrEqual(all.cout);
  });
});

describe.skipIf(!HAS_CORPUS)('S counted by generator pairs', () => {
  it('2395E2052253O: a heat pump and a heat-pump water heater replacing one boiler save more together than S allows alone; the pair gain covers it', async () => {
    const prep = await corpusDpe(engine, '2395E2052253O');
    const groups = [...candidatesOf(engine, prep, { ...frame, costs }).values()];
    const all = groups.flat();
    const pick = (ref: string, value: string) => {
      const c = all.find((x) => x.change.referenceId === ref && x.change.editableValue === value);
      if (!c) throw new Error(`${ref} ${value} not a candidate`);
      return c;
    };
    const pac = pick('installation_chauffage:0', 'PACAirEau');
    const cet = pick('installation_ecs:0', 'CETExterieur');
    const alone = (c: typeof pac) => c.single.before.ep - c.single.after.ep;
    const base = worksFigures(engine, prep, []).o.after.ep;
    const both = base - worksFigures(engine, prep, [pac.change, cet.change]).o.after.ep;
    // S alone fails here by far more than its margin
    expect(both).toBeGreaterThan((1 + (SUBADDITIVITY_MARGIN.ep ?? 0)) * (alone(pac) + alone(cet)));
    // the heat pump's gain, counted by its pairs, covers what the pair saves
    const pairs = generatorPairs(
      new Evaluator(engine, prep, { ...frame, costs, thresholds: prep.thresholds }, Infinity),
      groups,
    );
    const gain = pairs.get(pac)?.ep ?? 0;
    expect(gain).toBeGreaterThan(alone(pac));
    expect(gain + alone(cet)).toBeGreaterThanOrEqual(both - 1e-6);
  });
});
