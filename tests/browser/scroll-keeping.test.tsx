import { useMemo, useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OutboxEntry } from '../../src/engine/api';
import type { Message } from '../../src/protocol/entities';
import { buildMessageRows, type ChatRow, rowIndex, withOutbox } from '../../src/ui/chat/list/rows';
import { useScrollKeeping, type VisibleRows } from '../../src/ui/chat/list/useScrollKeeping';
import { message, OTHER, SELF } from './support/entities';
import { act } from './support/act';

/**
 * useScrollKeeping on its own, under rows of plain boxes whose heights differ from the virtualiser's
 * estimates (so every measurement moves the rows above what is read): no engine, no message rows, only the
 * hook, the virtualiser and a 400 px high scrolling box.
 */

interface Shown {
  messages: Message[];
  hasOlder: boolean;
  hasNewer?: boolean;
  outbox?: OutboxEntry[];
}

interface Calls {
  loadOlder: () => void;
  loadLatest: () => Promise<unknown>;
  onVisible: (visible: VisibleRows) => void;
  openAt?: (rows: readonly ChatRow[]) => number | 'end' | 'wait';
}

let show: (next: Shown) => void = () => undefined;
let root: Root | null = null;
let host: HTMLElement | null = null;

/** Not the estimate (64 px), and not the same for neighbours: measuring a row moves every row below it. */
const heightOf = (row: ChatRow) => (row.kind === 'day' ? 30 : row.kind === 'outbox' ? 70 : 40 + (Number(row.key.slice(2)) % 4) * 15);

function Harness({ initial, calls }: { initial: Shown; calls: Calls }) {
  const [shown, setShown] = useState(initial);
  show = setShown;
  const messageRows = useMemo(() => buildMessageRows(shown.messages, shown.hasOlder), [shown]);
  const rows = useMemo(() => withOutbox(messageRows, shown.outbox ?? []), [messageRows, shown]);
  const keeping = useScrollKeeping({
    rows,
    indexOf: (key) => rowIndex(messageRows, rows, key),
    loaded: true,
    hasOlder: shown.hasOlder,
    hasNewer: shown.hasNewer === true,
    openAt: () => calls.openAt?.(rows) ?? 'end',
    isOwn: (row) => row.kind === 'outbox' || (row.kind === 'message' && row.message.user_id === SELF),
    loadOlder: calls.loadOlder,
    loadLatest: calls.loadLatest,
    onVisible: calls.onVisible,
  });
  const { virtualizer } = keeping;
  return (
    <>
      <div
        ref={keeping.scrollRef}
        data-testid="list"
        style={{ height: '400px', width: '300px', overflowY: 'auto', overflowAnchor: 'none', position: 'relative' }}
        {...keeping.listeners}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }} data-space-above={keeping.spaceAbove}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <div
                key={item.key}
                data-index={item.index}
                data-key={row.key}
                ref={virtualizer.measureElement}
                style={{ position: 'absolute', top: 0, left: 0, right: 0, height: heightOf(row), transform: `translateY(${item.start}px)` }}
              >
                {row.key}
              </div>
            );
          })}
        </div>
      </div>
      {keeping.showJump ? <button onClick={keeping.jumpToLatest}>{`Jump, ${keeping.unseen} new`}</button> : null}
    </>
  );
}

const msg = (id: number, user = OTHER) => message({ id, stid: `s${id}`, user_id: user, created_at: String(1_700_000_000 + id) });
const many = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i));
const list = () => document.querySelector<HTMLElement>('[data-testid="list"]') as HTMLElement;
const row = (key: string) => list().querySelector<HTMLElement>(`[data-key="${key}"]`);
const top = (key: string) => row(key)?.getBoundingClientRect().top ?? Number.NaN;
const distanceFromEnd = () => list().scrollHeight - list().scrollTop - list().clientHeight;
const spaceAbove = () => Number(list().querySelector<HTMLElement>('[data-space-above]')?.dataset.spaceAbove);
const jumpButton = () => document.querySelector('button');
const frames = () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));

async function render(initial: Shown, openAt?: Calls['openAt']) {
  const calls = {
    loadOlder: vi.fn(() => undefined),
    loadLatest: vi.fn(async () => undefined),
    onVisible: vi.fn((_: VisibleRows) => undefined),
    openAt,
  };
  host = document.createElement('div');
  document.body.append(host);
  const r = createRoot(host);
  root = r;
  await act(async () => r.render(<Harness initial={initial} calls={calls} />));
  await frames();
  return calls;
}

async function push(next: Shown) {
  await act(async () => show(next));
  await frames();
  await frames();
}

/** Scrolls up a screen at a time until row `key` is drawn, then puts it in the middle. */
async function scrollTo(key: string) {
  for (let i = 0; i < 60 && !row(key); i++) {
    list().scrollTop -= list().clientHeight;
    await frames();
  }
  row(key)?.scrollIntoView({ block: 'center' });
  await frames();
  await frames();
}

afterEach(async () => {
  vi.useRealTimers();
  const r = root;
  root = null;
  if (r) await act(async () => r.unmount());
  host?.remove();
  host = null;
});

describe('useScrollKeeping', () => {
  it('opens at the end and follows appended rows there; a reader further up stays put and is told how many came', async () => {
    await render({ messages: many(1, 40), hasOlder: false });
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(1);
    expect(jumpButton()).toBeNull();

    await push({ messages: many(1, 41), hasOlder: false });
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(1);
    expect(row('m-41')).not.toBeNull();

    list().scrollTop = 200;
    await frames();
    expect(jumpButton()?.textContent).toBe('Jump, 0 new');
    const before = list().scrollTop;
    await push({ messages: [...many(1, 41), msg(42), msg(43, SELF), msg(44)], hasOlder: false });
    // Others' rows are counted; the reader's own row would have brought the list down had it come last.
    expect(list().scrollTop).toBe(before);
    expect(jumpButton()?.textContent).toBe('Jump, 2 new');

    // The reader's own send (an outbox row) brings the list to the end wherever the reader was.
    const entry: OutboxEntry = {
      localId: 'out_1',
      userId: SELF,
      conversationId: 10,
      comment: null,
      clientId: 5,
      text: 'mine',
      quotedMessageId: null,
      attachment: null,
      createdAt: 1_700_000_045_000,
      status: 'pending',
      error: null,
      attempts: 0,
    };
    await push({ messages: [...many(1, 41), msg(42), msg(43, SELF), msg(44)], hasOlder: false, outbox: [entry] });
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(1);
    expect(jumpButton()).toBeNull();
  });

  it('keeps the row being read exactly in place while pages arrive and are trimmed above, without a scroll write', async () => {
    await render({ messages: many(100, 160), hasOlder: true });
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(1);
    // Older history behind the rows: the room above them is there from the first frame (give or take the
    // measured rows' difference from their estimates).
    expect(spaceAbove()).toBeGreaterThan(90_000);
    await scrollTo('m-120');
    const room = spaceAbove();
    const scrollTop = list().scrollTop;
    const before = top('m-120');
    let scrolls = 0;
    list().addEventListener('scroll', () => (scrolls += 1));

    await push({ messages: many(60, 160), hasOlder: true });
    expect(top('m-120')).toBe(before);
    // The 40 rows above went into the room above (their heights, not the estimates, once measured).
    expect(spaceAbove()).toBeLessThan(room - 40 * 40);
    await push({ messages: many(100, 160), hasOlder: true });
    expect(top('m-120')).toBe(before);
    expect(spaceAbove()).toBe(room);
    expect(list().scrollTop).toBe(scrollTop);
    expect(scrolls).toBe(0);
  });

  it('at the oldest row the room above goes, in the same frame, and the row being read stays put', async () => {
    await render({ messages: many(100, 160), hasOlder: true });
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(1);
    await scrollTo('m-110');
    const before = top('m-110');
    await act(async () => show({ messages: many(1, 160), hasOlder: false }));
    expect(top('m-110')).toBe(before);
    await frames();
    expect(top('m-110')).toBe(before);
    expect(spaceAbove()).toBe(0);
  });

  it('asks for older rows once, 100 ms after the reader comes within 200 px of the top of the rows', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const calls = await render({ messages: many(100, 140), hasOlder: true });
    list().scrollTop = spaceAbove() + 600;
    await frames();
    await act(async () => vi.advanceTimersByTime(1_000));
    expect(calls.loadOlder).not.toHaveBeenCalled();

    const scrolled = new Promise<void>((resolve) => list().addEventListener('scroll', () => resolve(), { once: true }));
    list().scrollTop = spaceAbove() + 150;
    await scrolled;
    await act(async () => vi.advanceTimersByTime(99));
    expect(calls.loadOlder).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(1));
    expect(calls.loadOlder).toHaveBeenCalledTimes(1);
    await act(async () => vi.advanceTimersByTime(500));
    expect(calls.loadOlder).toHaveBeenCalledTimes(1);
  });

  it('stays pinned to the bottom when the viewport gets shorter', async () => {
    await render({ messages: many(1, 40), hasOlder: false });
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(1);
    list().style.height = '250px';
    await frames();
    await expect.poll(distanceFromEnd, { timeout: 5_000 }).toBeLessThanOrEqual(1);
  });

  it('opens centred on the row it is told to, and holds it there while pages arrive above', async () => {
    await render({ messages: many(100, 160), hasOlder: true }, (rows) => rows.findIndex((r) => r.key === 'm-130'));
    const middle = () => {
      const box = list().getBoundingClientRect();
      const at = row('m-130')?.getBoundingClientRect();
      return at ? Math.abs(at.top + at.height / 2 - (box.top + box.height / 2)) : Number.POSITIVE_INFINITY;
    };
    // Centred as estimated; the row's own measured height may move its middle by a few pixels.
    await expect.poll(middle).toBeLessThanOrEqual(20);
    expect(distanceFromEnd()).toBeGreaterThan(400);
    const before = top('m-130');
    await push({ messages: many(40, 160), hasOlder: true });
    expect(top('m-130')).toBe(before);
    expect(jumpButton()).not.toBeNull();
  });

  it('reports the rows on screen after opening and after each scroll', async () => {
    const calls = await render({ messages: many(1, 60), hasOlder: false });
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(1);
    const visible = () => {
      const last = calls.onVisible.mock.calls.at(-1)?.[0];
      return last ? [last.rows[last.first]?.key, last.rows[last.last]?.key] : [];
    };
    await expect.poll(visible).toContain('m-60');
    list().scrollTop = 0;
    await expect.poll(() => visible()[0]).toBe('day-1');
  });
});
