/**
 * The fault tests' random moments, from a seed the run prints in its table (FAULT_SEED repeats a run):
 * a failure found at random can be replayed.
 */
export const SEED = Number(process.env.FAULT_SEED ?? Date.now() % 1_000_000);

/** mulberry32: small, fast, good enough to pick moments. */
export function seededRandom(seed = SEED): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
