// A seeded pseudo-random sequence (mulberry32): the same seed gives the same numbers on every machine and run, so a
// delivery fault plan repeats exactly. Not for secrets: ids and keys come from node:crypto.

/** Seeds are 32-bit unsigned integers. */
export const MAX_SEED = 0xffff_ffff;

export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The next number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer from 0 to n - 1 (n ≥ 1). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer from min to max, both included. */
  between(min: number, max: number): number {
    return min + this.below(max - min + 1);
  }
}

/** The seed of one group of events: the run's seed mixed with the group's ordinal, so each group's plan depends only
 * on the seed and how many groups came before it. */
export function groupSeed(seed: number, ordinal: number): number {
  let h = (seed ^ Math.imul(ordinal + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
