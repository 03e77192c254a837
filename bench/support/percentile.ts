// The benches' latency figure: a percentile of the samples, by rank (no interpolation between two samples).

/** The `p`th percentile (0 to 100) of `sorted`, ascending; 0 when there is no sample. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}
