/**
 * How many runs a property test makes. By default each property makes the few runs it asks for,
 * from a fixed seed, so `npm test` stays quick and a failure replays the same way;
 * `FOODCTL_FUZZ_RUNS=2000 npx vitest run test/sandbox-fuzz` runs every property that many times
 * (same seed: the default runs come first, then deeper ones).
 */
export function fuzzRuns(defaultRuns: number): number {
  const deep = Number(process.env.FOODCTL_FUZZ_RUNS);
  return Number.isInteger(deep) && deep > 0 ? deep : defaultRuns;
}
