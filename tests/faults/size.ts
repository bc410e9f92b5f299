/**
 * How hard the fault tests push: `FAULTS=short` (what `npm test` runs: a few of each, a minute or two in
 * all) or the full size of issue 12 (`npm run test:faults`, the default).
 */
export const SHORT = process.env.FAULTS === 'short';

export const SIZE = SHORT
  ? { kills: 3, killMessages: 12, cutAnswers: 3, stalls: 1, closedTabMessages: 20 }
  : { kills: 50, killMessages: 200, cutAnswers: 50, stalls: 3, closedTabMessages: 20 };
