/**
 * The diagnostician's pack texts as a person reads them: the literal "VbSimpleCr" line breaks of
 * some diagnosticians' software split into steps, a long advice reduced to its title, the same
 * advice (written once per wall) said once in a pack.
 */
import { describe, expect, it } from 'vitest';
import type { RawDpe } from '../src/dpe/raw.js';
import { adviceSteps, registryPacks } from '../src/simulation/packs.js';

describe('pack texts', () => {
  it('splits steps glued by VbSimpleCr', () => {
    expect(
      adviceSteps(
        'Remplacer le système de chauffage par une pompe à chaleur.VbSimpleCrMettre à jour le système d’intermittence / Régulation',
      ),
    ).toEqual([
      'Remplacer le système de chauffage par une pompe à chaleur.',
      'Mettre à jour le système d’intermittence / Régulation',
    ]);
  });

  it('keeps the title of "Title : long advice" and the first sentence of a long step', () => {
    const advice =
      'Isolation des murs par l’intérieur (donne sur extérieur) : Isolation des murs par l’intérieur. Les performances thermiques minimales à respecter sont en fonction du type de paroi opaque et de la zone climatique.';
    expect(adviceSteps(advice)).toEqual([
      'Isolation des murs par l’intérieur (donne sur extérieur)',
    ]);
    const long = `Si un ravalement de façade est prévu, isoler par l’extérieur. ${'Détail. '.repeat(30)}`;
    expect(adviceSteps(long)).toEqual([
      'Si un ravalement de façade est prévu, isoler par l’extérieur.',
    ]);
    expect(adviceSteps('Sans')).toEqual([]);
  });

  it('says the same advice once in a pack', () => {
    const advice = 'Isolation des murs par l’intérieur : R ≥ 3,7 m².K/W.';
    const raw = {
      descriptif_travaux: {
        pack_travaux_collection: {
          pack_travaux: [
            {
              cout_pack_travaux_min: 10000,
              cout_pack_travaux_max: 15000,
              travaux_collection: {
                travaux: [
                  { description_travaux: advice },
                  { description_travaux: advice },
                  { description_travaux: 'Installer une VMC hygroréglable' },
                  { description_travaux: advice },
                ],
              },
            },
          ],
        },
      },
    } as unknown as RawDpe;
    expect(registryPacks(raw)[0]?.description).toBe(
      'Isolation des murs par l’intérieur + Installer une VMC hygroréglable',
    );
  });
});
