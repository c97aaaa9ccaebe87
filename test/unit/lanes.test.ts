/** The batch's scheduler: one lane per intake in file order, lanes side by side up to the concurrency. */
import { describe, expect, it } from "vitest";
import { runInLanes } from "../../src/batch/lanes.js";

/** Runs `keys` through the lanes with work that yields to the event loop a few times. */
async function schedule(keys: number[], concurrency: number, stopAfter = Infinity) {
  const started: number[] = [];
  const running = new Set<number>();
  let most = 0;
  const carriedSeen: Array<[number, number | undefined]> = [];
  await runInLanes<number>({
    count: keys.length,
    concurrency,
    keyOf: (index) => keys[index]!,
    stopped: () => started.length >= stopAfter,
    work: async (index, carried) => {
      const key = keys[index]!;
      expect(running.has(key), `intake ${key} runs one change at a time`).toBe(false);
      running.add(key);
      most = Math.max(most, running.size);
      started.push(index);
      carriedSeen.push([index, carried]);
      for (let step = 0; step < (index % 3) + 1; step++) await new Promise((resolve) => setImmediate(resolve));
      running.delete(key);
      return index;
    },
  });
  return { started, most, carriedSeen };
}

describe("runInLanes", () => {
  it("runs each key's items in order, one at a time, and different keys side by side", async () => {
    const keys = [1, 1, 2, 3, 1, 2, 4, 4, 3, 1, 5, 2];
    const { started, most } = await schedule(keys, 3);
    expect([...started].sort((a, b) => a - b)).toEqual(keys.map((_key, index) => index));
    for (const key of new Set(keys)) {
      const own = started.filter((index) => keys[index] === key);
      expect(own, `key ${key}`).toEqual([...own].sort((a, b) => a - b));
    }
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(3);
  });

  it("hands an item queued behind another of its key what that one returned", async () => {
    // With 3 workers, items 2, 3 and 4 are queued while 0 and 1 run.
    const keys = [7, 8, 7, 7, 8];
    const { carriedSeen } = await schedule(keys, 3);
    const carried = new Map(carriedSeen);
    expect(carried.get(0)).toBeUndefined();
    expect(carried.get(1)).toBeUndefined();
    expect(carried.get(2)).toBe(0);
    expect(carried.get(3)).toBe(2);
    expect(carried.get(4)).toBe(1);
  });

  it("starts nothing more once stopped", async () => {
    const { started } = await schedule([1, 2, 1, 2, 1, 2, 1, 2], 2, 3);
    expect(started.length).toBeLessThanOrEqual(4);
  });
});
