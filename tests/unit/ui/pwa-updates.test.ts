import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serviceWorkerFiles } from '../../../scripts/build-report';
import type { OutboxEntry } from '../../../src/engine/api';
import { watchForNewBuild } from '../../../src/ui/pwa/newBuild';
import { buildOfShell } from '../../../src/ui/pwa/shellBuild';
import { hasUnsentInput } from '../../../src/ui/pwa/unsentInput';

/** A service worker registration as far as watchForNewBuild uses it: events and the installing worker. */
class FakeRegistration extends EventTarget {
  installing: (EventTarget & { state: string }) | null = null;

  /** A new worker installs and then activates, as `autoUpdate` does. */
  update(): void {
    const worker = Object.assign(new EventTarget(), { state: 'installing' });
    this.installing = worker;
    this.dispatchEvent(new Event('updatefound'));
    worker.state = 'activated';
    worker.dispatchEvent(new Event('statechange'));
  }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the app shell\'s build', () => {
  it('is read from the meta tag vite.config.ts puts in index.html', () => {
    expect(buildOfShell('<head><meta name="messenger-build" content="mwu6ip3o"><title>x</title></head>')).toBe('mwu6ip3o');
    expect(buildOfShell('<head><title>no build</title></head>')).toBeNull();
  });
});

describe('a new build from the service worker', () => {
  it('is announced only when an update seen in this tab brought a shell of another build', async () => {
    const registration = new FakeRegistration();
    let shells = ['this-build'];
    const announced: string[] = [];
    const stop = watchForNewBuild(registration as unknown as ServiceWorkerRegistration, 'this-build', (into) => announced.push(into), async () => shells);
    // Nothing happens at start-up, whatever the cache holds: only an update counts.
    await flush();
    expect(announced).toEqual([]);
    // The first install of this same build is no news.
    registration.update();
    await flush();
    expect(announced).toEqual([]);
    // Announced with the new build's id: the reload into it is noted as the engine's reloads are.
    shells = ['next-build'];
    registration.update();
    await flush();
    expect(announced).toEqual(['next-build']);
    stop();
    registration.update();
    await flush();
    expect(announced).toEqual(['next-build']);
  });
});

describe('unsent input', () => {
  const none = { outbox: [], drafts: {}, formDrafts: {} };
  it('is none with an empty outbox and no draft with text', () => {
    expect(hasUnsentInput(none)).toBe(false);
    expect(hasUnsentInput({ ...none, drafts: { 4: '  ' } })).toBe(false);
  });
  it('is a queued message, a chat draft or a form draft', () => {
    expect(hasUnsentInput({ ...none, outbox: [{ localId: 'x' } as OutboxEntry] })).toBe(true);
    expect(hasUnsentInput({ ...none, drafts: { 4: 'half a thought' } })).toBe(true);
    expect(hasUnsentInput({ ...none, formDrafts: { newGroup: { name: 'G', members: [] } as never } })).toBe(true);
  });
});

describe('the size report', () => {
  it('lists the service worker and its Workbox runtime apart from the routes, when the build has one', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pwa-report-'));
    try {
      expect(serviceWorkerFiles(dir)).toEqual([]);
      for (const file of ['sw.js', 'workbox-524b2767.js', 'index-abc.js']) writeFileSync(path.join(dir, file), '');
      expect(serviceWorkerFiles(dir)).toEqual(['sw.js', 'workbox-524b2767.js']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
