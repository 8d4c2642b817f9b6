/** One figure a benchmark measured. `value` is a median unless `name` says otherwise. */
export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  detail?: string;
}

export interface BenchSuite {
  name: string;
  run(): Promise<BenchResult[]>;
  /** Set by run() when its options make another set of figures: bench/results/<resultsName>.json. */
  resultsName?: string;
}

/** Median of a sample (the benchmarks report medians: these machines are shared and noisy). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
