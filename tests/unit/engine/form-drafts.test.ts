import { BehaviorSubject, firstValueFrom, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { FormDraft } from '../../../src/engine/api';
import { FormDraftStore } from '../../../src/engine/preferences/formDrafts';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { useTestServer } from '../../support/server';
import { refusal, signIn, useEngines } from './support/liveEngines';

const s = useTestServer();
const { startEngine } = useEngines(s);

const group: FormDraft = {
  name: 'Book club',
  members: [
    { id: 'a', name: 'Anna', phone: '0701234567' },
    { id: 'b', name: '', phone: '' },
  ],
};
const empty: FormDraft = { name: '  ', phone: '', members: [{ id: 'a', name: '', phone: ' ' }] };

describe('form drafts (spec §2: kept locally)', () => {
  it('survive a restart, go with null or an empty draft, and go on logout together with the message drafts', async () => {
    const storage = new MemoryStorage();
    const first = await startEngine({ storage });
    await signIn(first, 'Former');
    await first.setFormDraft('newGroup', group);
    await first.setFormDraft('newPrivate', { name: 'Erik', phone: '0709', members: [] });
    await first.setFormDraft('addMembers:7', { name: '', members: [{ id: '1', name: 'Eva', phone: '' }] });
    await first.setDraft(12, 'a message draft');
    await first.stop();

    const second = await startEngine({ storage });
    expect(await firstValueFrom(second.formDrafts())).toEqual({
      newGroup: group,
      newPrivate: { name: 'Erik', phone: '0709', members: [] },
      'addMembers:7': { name: '', members: [{ id: '1', name: 'Eva', phone: '' }] },
    });
    // The message drafts share the store and are not confused with the forms'.
    expect(await firstValueFrom(second.drafts())).toEqual({ 12: 'a message draft' });

    await second.setFormDraft('newPrivate', null);
    await second.setFormDraft('addMembers:7', empty);
    expect(Object.keys(await firstValueFrom(second.formDrafts()))).toEqual(['newGroup']);
    await second.stop();

    const third = await startEngine({ storage });
    expect(await firstValueFrom(third.formDrafts())).toEqual({ newGroup: group });
    await third.logout();
    expect(await firstValueFrom(third.formDrafts())).toEqual({});
    expect(await storage.getAll('drafts')).toEqual([]);
  });

  it('refuses what is not a form draft', async () => {
    const engine = await startEngine();
    await signIn(engine, 'Odd');
    expect(await refusal(engine.setFormDraft('', group))).toBe('Invalid parameters provided');
    const bad = { name: 'x', members: [{ id: 1, name: 'a', phone: 'b' }] } as unknown as FormDraft;
    expect(await refusal(engine.setFormDraft('newGroup', bad))).toBe('Invalid parameters provided');
    expect(await firstValueFrom(engine.formDrafts())).toEqual({});
  });
});

describe('FormDraftStore', () => {
  it('shows each account only its own drafts', async () => {
    const storage = new MemoryStorage();
    const user = new BehaviorSubject<number | null>(1);
    const store = new FormDraftStore(storage, user, () => user.value);
    await store.setFormDraft('newGroup', group);
    user.next(2);
    expect(await firstValueFrom(store.formDrafts())).toEqual({});
    await store.setFormDraft('newGroup', { name: 'Other', members: [] });
    user.next(null);
    expect(await firstValueFrom(store.formDrafts())).toEqual({});
    // Signed out there is no account to keep a draft for.
    await store.setFormDraft('newGroup', { name: 'Nobody', members: [] });

    const reloaded = new FormDraftStore(storage, user, () => user.value);
    await reloaded.load();
    user.next(1);
    expect(await firstValueFrom(reloaded.formDrafts())).toEqual({ newGroup: group });
    user.next(2);
    expect(await firstValueFrom(reloaded.formDrafts())).toEqual({ newGroup: { name: 'Other', members: [] } });
  });

  it('follows the drafts and the account as they change, once the account is known', async () => {
    const storage = new MemoryStorage();
    const user = new Subject<number | null>();
    let current: number | null = null;
    const store = new FormDraftStore(storage, user, () => current);
    const seen: string[][] = [];
    const subscription = store.formDrafts().subscribe((drafts) => seen.push(Object.keys(drafts)));
    // No account known yet: nothing to show, not an empty list that would clear a form.
    expect(seen).toEqual([]);
    current = 1;
    user.next(1);
    expect(seen).toEqual([[]]);
    await store.setFormDraft('newGroup', group);
    expect(seen).toEqual([[], ['newGroup']]);
    // The same account again is no change.
    user.next(1);
    expect(seen).toHaveLength(2);
    current = 2;
    user.next(2);
    expect(seen).toEqual([[], ['newGroup'], []]);
    subscription.unsubscribe();
    expect(user.observed).toBe(false);
  });
});
