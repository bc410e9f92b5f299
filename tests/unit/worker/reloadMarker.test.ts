import { describe, expect, it } from 'vitest';
import { MAX_RELOADS, noteEngineReload, pageLoadClaims } from '../../../src/worker/reloadMarker';

/** A tab's sessionStorage. */
function store() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v) };
}

const A = { id: 'a', time: 1 };
const B = { id: 'b', time: 2 };

describe('the engine-asked reloads of a tab (issue 14)', () => {
  it('a page load claims the engine for its build, unless it follows a reload that sent it to another build', () => {
    const tab = store();
    expect(pageLoadClaims(A, 0, tab)).toBe(true);
    expect(noteEngineReload(B, 0, tab)).toBe(true);
    // Sent to B, landed on B: it claims (its build has the engine anyway).
    expect(pageLoadClaims(B, 10, tab)).toBe(true);
    // Sent to B, landed on A (two builds served at once): it must not take the engine back.
    expect(pageLoadClaims(A, 10, tab)).toBe(false);
    // A minute later a load is the user's own again.
    expect(pageLoadClaims(A, 61_000, tab)).toBe(true);
  });

  it('a reload into an unknown build (a storage upgrade) leaves the next load free to claim', () => {
    const tab = store();
    expect(noteEngineReload(null, 0, tab)).toBe(true);
    expect(pageLoadClaims(A, 10, tab)).toBe(true);
  });

  it('reloads by itself at most MAX_RELOADS times a minute', () => {
    const tab = store();
    for (let i = 0; i < MAX_RELOADS; i++) expect(noteEngineReload(B, i * 1_000, tab)).toBe(true);
    expect(noteEngineReload(B, MAX_RELOADS * 1_000, tab)).toBe(false);
    expect(noteEngineReload(B, 61_000, tab)).toBe(true);
  });

  it('without sessionStorage every load claims, and reloads are not counted', () => {
    expect(pageLoadClaims(A, 0, null)).toBe(true);
    expect(noteEngineReload(B, 0, null)).toBe(true);
  });
});
