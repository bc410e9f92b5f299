import type { EngineClock } from '../../../src/engine/clock';

/** A clock the test moves by hand; timers fire when their time is passed. */
export function manualClock() {
  let now = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let ids = 0;
  const clock: EngineClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      const id = ++ids;
      timers.push({ at: now + ms, fn, id });
      return id;
    },
    clearTimeout: (handle) => {
      timers = timers.filter((t) => t.id !== handle);
    },
    random: () => 0,
  };
  const advance = async (ms: number) => {
    const until = now + ms;
    for (;;) {
      const due = timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers = timers.filter((t) => t !== due);
      now = due.at;
      due.fn();
      // Let the sweep's promise chain settle before the next timer.
      for (let i = 0; i < 10; i++) await Promise.resolve();
    }
    now = until;
  };
  return { clock, advance };
}
