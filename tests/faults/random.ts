import { seededRandom as seedRandom } from '../../server/seed/random';

/**
 * The fault tests' random moments, from a seed the run prints in its table (FAULT_SEED repeats a run):
 * a failure found at random can be replayed.
 */
export const SEED = Number(process.env.FAULT_SEED ?? Date.now() % 1_000_000);

/** The fault tests' generator: the seed generator's (server/seed/random.ts), from SEED unless given. */
export const seededRandom = (seed = SEED): (() => number) => seedRandom(seed);

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
