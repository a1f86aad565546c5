/**
 * Progress of a long computation, reported as it goes (an `initial` on a whole building runs
 * hundreds of engine passes). Steps: `options`, one engine run per works option per element
 * (done / total options); `scenarios`, the search for the cheapest scenario per target class
 * (done / total target classes).
 */
export interface Progress {
  step: 'options' | 'scenarios';
  done: number;
  total: number;
}

export type OnProgress = (progress: Progress) => void;
