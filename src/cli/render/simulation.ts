/** Simulation results for humans: classes, figures before/after, hints, elements and options. */
import type {
  AutoSolution,
  CalcResponse,
  Calculation,
  DpeStructure,
  InitialResponse,
} from '../../contract/schemas.js';
import { CATEGORIES } from '../../contract/constants.js';
import type { Style } from './style.js';
import { euros, num, saving, table } from './table.js';
import { nextClassText, renderAlerts, renderPacksClean } from './classes.js';

const LETTERS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
export function letter(index: number): string {
  return LETTERS[Math.round(index) - 1] ?? '?';
}

export function renderCalculation(calc: Calculation, s: Style): string {
  const r = calc.result;
  const cls = (k: 'classe_bilan_dpe' | 'classe_conso_c' | 'classe_emission_ges') =>
    `${s.classLetter(letter(r[k].VInit))} → ${s.classLetter(letter(r[k].value))}`;
  const row = (label: string, k: keyof typeof r, digits = 0) => [
    label,
    num(r[k].VInit, digits),
    num(r[k].value, digits),
  ];
  const h = calc.hints;
  const out = [
    table(
      ['Class', 'Before → after'],
      [
        ['DPE (official: worse of energy and GES)', cls('classe_bilan_dpe')],
        ['Energy', cls('classe_conso_c')],
        ['Climate (GES)', cls('classe_emission_ges')],
      ],
    ),
    table(
      ['Figure', 'Before', 'After'],
      [
        row('Primary energy (kWh/m²/yr)', 'ep_conso_5_usages_m2', 1),
        row('Primary energy (kWh/yr)', 'ep_conso_5_usages'),
        row('Emissions (kg CO2e/m²/yr)', 'emission_ges_5_usages_m2', 1),
        row('Emissions (kg CO2e/yr)', 'emission_ges_5_usages'),
        row('Energy cost (€/yr)', 'cout_5_usages'),
        row('Floor area lost (m²)', 'perte_surface_m2', 2),
      ],
    ),
    table(
      ['Hint', 'Value'],
      [
        ['Works cost', euros(h.coutTravaux)],
        ['Annual saving', `${euros(h.economieAnnuelle)}/yr`],
        ['Energy saved', `${num(h.gainTotal)} kWh/yr (${num(h.gainM2, 1)} kWh/m²/yr)`],
        ['Emissions avoided', `${num(h.gainGESM2, 1)} kg CO2e/m²/yr`],
        [
          'Payback',
          h.retourSurInvestissementAnnees === null
            ? '–'
            : `${num(h.retourSurInvestissementAnnees, 1)} years`,
        ],
        ['To the next class', nextClassText(h)],
      ],
    ),
  ];
  if (calc.normalization.applied)
    out.push(s.c.yellow(`Normalized to the registry: ${calc.normalization.reason}.`));
  return out.join('\n');
}

export function renderElements(dpe: DpeStructure, s: Style): string {
  const rows: string[][] = [];
  for (const cat of CATEGORIES) {
    for (const el of dpe.items[cat]) {
      const options = Object.entries(el.editables).flatMap(([key, ed]) =>
        Object.entries(ed.options).map(
          ([code, o]) =>
            `${key}:${code}  ${euros(o.cout)}, ${saving(o.gainTotal, 'kWh/yr')}${o.euroParKwh !== null ? `, ${num(o.euroParKwh, 2)} €/kWh` : ''}`,
        ),
      );
      rows.push([
        el.referenceId,
        `${el.description}\n${s.c.dim(el.etat)}`,
        options.length ? options.join('\n') : s.c.dim('no works offered'),
      ]);
    }
  }
  return table(
    ['Element', 'Description (state)', 'Works options: cost, primary energy saved'],
    rows,
    [26, 46, 60],
  );
}

export function renderInfos(dpe: DpeStructure): string {
  return table(
    ['', ''],
    Object.values(dpe.infos).map((i) => [
      i.label,
      `${i.value ?? '–'}${i.unit ? ` ${i.unit}` : ''}`,
    ]),
  );
}

export function renderSolutions(solutions: readonly AutoSolution[], s: Style): string {
  if (solutions.length === 0) {
    return s.c.dim('No recommended scenario (the catalogue cannot improve the class).');
  }
  return table(
    [
      '#',
      'Target',
      'Works (cost)',
      'Cost',
      'kWh/m²/yr after',
      'kg CO2e/m²/yr after',
      '€ per kWh saved',
      'Rental ban after',
    ],
    solutions.map((sol, i) => {
      const reached = letter(sol.result.classe_bilan_dpe.value);
      return [
        String(i + 1),
        `${s.classLetter(sol.classe)}${reached !== sol.classe ? ` (reaches ${reached})` : ''}`,
        sol.items
          .map(
            (it) => `${it.referenceId} ${it.editableKey}:${it.editableValue} (${euros(it.cout)})`,
          )
          .join('\n'),
        euros(sol.cout),
        num(sol.consoApres, 1),
        num(sol.gesApres, 1),
        sol.euroParKwh === null ? '–' : num(sol.euroParKwh, 2),
        `${sol.interdictionLocation === null ? 'none' : `from ${sol.interdictionLocation}`}${sol.sortInterdiction ? s.c.green(sol.interdictionLocation === null ? ' (lifted)' : ' (postponed)') : ''}`,
      ];
    }),
  );
}

export function renderPacks(packs: InitialResponse['registryPacks'], s: Style): string {
  if (packs.length === 0) return s.c.dim('The XML carries no works packs of its own.');
  return table(
    ['#', "Diagnostician's pack (from the registry XML)", 'Cost range', 'Consumption after'],
    packs.map((p, i) => [
      String(i + 1),
      p.description,
      p.coutMin === null && p.coutMax === null ? '–' : `${euros(p.coutMin)} – ${euros(p.coutMax)}`,
      num(p.consoApres, 1),
    ]),
    [4, 70, 22, 18],
  );
}

export function renderInitial(body: InitialResponse, dpeArg: string, s: Style): string {
  const tips = [
    `Cost figures ±${Math.round(body.deltaCosts.margin * 100)}%: ${body.deltaCosts.source}`,
    `Try: dpe-sim calc ${dpeArg} --work <referenceId>=<KEY>:<VALUE>  (or -i to pick interactively)`,
    ...(body.autoSolutions.length
      ? [`Apply a scenario: dpe-sim calc ${dpeArg} --scenario-from 1`]
      : []),
  ];
  return [
    s.c.bold(`DPE ${body.dpe.id}: class ${body.simulation.initialGrade}`) +
      s.c.dim(`  (simulation ${body.simulation.simulationId})`),
    renderInfos(body.dpe),
    renderCalculation(body.calculation, s),
    renderElements(body.dpe, s),
    s.c.bold('Recommended scenarios (the cheapest combination found for each class)'),
    renderSolutions(body.autoSolutions, s),
    s.c.bold('Registry works packs, to compare'),
    renderPacksClean(body.registryPacks, s),
    renderAlerts(body.warnings, s),
    ...tips.map((t) => s.c.dim(t)),
  ].join('\n');
}

export function renderCalc(body: CalcResponse, s: Style): string {
  const works = body.editableChanges.editablesValues;
  return [
    s.c.bold(
      `DPE ${body.simulation.dpeId}: ${body.simulation.initialGrade} → ${body.simulation.currentGrade}`,
    ) +
      s.c.dim(
        `  (scenario ${body.namedCalculation}, ${works.length} works item${works.length === 1 ? '' : 's'})`,
      ),
    renderCalculation(body.calculation, s),
    renderAlerts(body.warnings, s),
  ]
    .filter(Boolean)
    .join('\n');
}
