/**
 * How big each benchmark runs. `npm run bench` uses FULL (the sizes of issues 4, 11 and 14; environment
 * variables change single sizes); the smoke test in `npm test` uses SMOKE, a few seconds per benchmark, to
 * prove that each still produces its figures.
 */
export interface Sizes {
  /** Runs per figure: each figure is the median of this many. */
  runs: number;
  /** Server: calls timed per page figure (their median is one run's figure). */
  serverRounds: number;
  /** Messages of the big group (scrolling, renders, drift). */
  bigGroup: number;
  /**
   * Issue 24: messages of the very big group (server pages, and the `group` benchmark's open, wheel, heap and
   * drift), the chat its open time is held against, and how far up its heap figure scrolls and for how long at most.
   */
  millionGroup: number;
  groupOpenBaseline: number;
  groupHeapScrollMessages: number;
  groupScrollSeconds: number;
  /** The big chats list of issue 4, and its baseline. */
  listChats: number;
  listBaselineChats: number;
  /** Engine worker kills per mode (issue 14). */
  recoveryRounds: number;
  /** Chat UI: messages that arrive per run of the render count, messages scrolled up for the heap figure. */
  renderMessages: number;
  heapScrollMessages: number;
  /** Wheel events of one fast scroll (each `wheelDelta` px, one per frame). */
  wheelEvents: number;
  wheelDelta: number;
  /** Wheel bursts of the drift figures (issue 20), each 10 notches of 300 px: 8 are the 24,000 px. */
  driftBursts: number;
  /** Tab counts of the tabs benchmark, and messages per run at each count. */
  tabs: number[];
  tabMessages: number;
  /** Chats of the user in the cold-start benchmark, and the round trip of its link to the server. */
  coldStartChats: number;
  rttMs: number;
  /** Messages of one burst, and the time they arrive within. */
  burstMessages: number;
  burstMs: number;
  /** Fan-out: websocket clients, groups they are split into, messages a second, seconds. */
  fanoutClients: number;
  fanoutGroups: number;
  fanoutRate: number;
  fanoutSeconds: number;
  /** Messages of the search index (issue 13), and of its baseline. */
  searchMessages: number;
  searchBaselineMessages: number;
  /** Issue 24's index candidates (search-scale): messages, the baseline, and the size FlexSearch is built at. */
  searchScaleMessages: number;
  searchScaleBaselineMessages: number;
  searchScaleFlexMessages: number;
  /** Issue 24: the messages of the chat that `search-removal` leaves and trims. */
  searchRemovalMessages: number;
  /** Issue 24's search in Chromium (search-browser): messages of the engine's index, and of its baseline. */
  searchBrowserMessages: number;
  searchBrowserBaselineMessages: number;
  /** Messages of a chat exported (issue 24), and of its baseline. */
  exportMessages: number;
  exportBaselineMessages: number;
  /** The pages Lighthouse measures (issue 20): first visits to /login and /satir, /inbox signed in. */
  lighthousePages: ('/login' | '/satir' | '/inbox')[];
}

const num = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number, got "${raw}"`);
  return n;
};

const list = (name: string, fallback: number[]): number[] => {
  const raw = process.env[name];
  if (!raw) return fallback;
  return raw.split(',').map((s) => {
    const n = Number(s);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be whole numbers separated by commas, got "${raw}"`);
    return n;
  });
};

export function fullSizes(): Sizes {
  return {
    runs: Math.max(5, num('BENCH_RUNS', 5)),
    serverRounds: num('BENCH_ROUNDS', 200),
    bigGroup: num('BENCH_BIG_GROUP', 100_000),
    millionGroup: num('BENCH_MILLION_GROUP', 1_000_000),
    groupOpenBaseline: 100,
    groupHeapScrollMessages: num('BENCH_GROUP_HEAP_SCROLL', 30_000),
    groupScrollSeconds: num('BENCH_GROUP_SCROLL_S', 600),
    listChats: num('BENCH_LIST_CHATS', 5_000),
    listBaselineChats: 50,
    recoveryRounds: num('BENCH_RECOVERY_ROUNDS', 5),
    renderMessages: 6,
    heapScrollMessages: num('BENCH_HEAP_SCROLL', 3_000),
    wheelEvents: 60,
    wheelDelta: 240,
    driftBursts: 8,
    tabs: list('BENCH_TABS', [1, 5, 10, 20]),
    tabMessages: 4,
    coldStartChats: 300,
    rttMs: num('BENCH_RTT_MS', 100),
    burstMessages: num('BENCH_BURST', 1_000),
    burstMs: 1_000,
    fanoutClients: num('BENCH_FANOUT_CLIENTS', 1_000),
    fanoutGroups: 10,
    fanoutRate: 100,
    fanoutSeconds: num('BENCH_FANOUT_SECONDS', 30),
    searchMessages: num('BENCH_SEARCH_MESSAGES', 100_000),
    searchBaselineMessages: 1_000,
    searchScaleMessages: num('BENCH_SEARCH_SCALE_MESSAGES', 1_000_000),
    searchScaleBaselineMessages: num('BENCH_SEARCH_SCALE_BASELINE', 100_000),
    searchScaleFlexMessages: num('BENCH_SEARCH_SCALE_FLEX', 20_000),
    searchRemovalMessages: num('BENCH_SEARCH_REMOVAL_MESSAGES', 100_000),
    searchBrowserMessages: num('BENCH_SEARCH_BROWSER_MESSAGES', 1_000_000),
    searchBrowserBaselineMessages: num('BENCH_SEARCH_BROWSER_BASELINE', 100_000),
    exportMessages: num('BENCH_EXPORT_MESSAGES', 100_000),
    exportBaselineMessages: 1_000,
    lighthousePages: ['/login', '/satir', '/inbox'],
  };
}

export const SMOKE: Sizes = {
  runs: 1,
  serverRounds: 5,
  bigGroup: 2_000,
  millionGroup: 2_000,
  groupOpenBaseline: 100,
  groupHeapScrollMessages: 60,
  groupScrollSeconds: 30,
  listChats: 100,
  listBaselineChats: 10,
  recoveryRounds: 1,
  renderMessages: 2,
  heapScrollMessages: 60,
  wheelEvents: 8,
  wheelDelta: 240,
  driftBursts: 2,
  tabs: [1, 2],
  tabMessages: 1,
  coldStartChats: 20,
  rttMs: 100,
  burstMessages: 50,
  burstMs: 250,
  fanoutClients: 20,
  fanoutGroups: 2,
  fanoutRate: 20,
  fanoutSeconds: 1,
  searchMessages: 2_000,
  searchBaselineMessages: 200,
  searchScaleMessages: 5_000,
  searchScaleBaselineMessages: 1_000,
  searchScaleFlexMessages: 500,
  searchRemovalMessages: 5_000,
  searchBrowserMessages: 3_000,
  searchBrowserBaselineMessages: 500,
  exportMessages: 500,
  exportBaselineMessages: 50,
  lighthousePages: ['/login', '/inbox'],
};
