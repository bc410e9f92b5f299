import { describe, expect, it } from 'vitest';
import type { EngineStorage, StoreTx } from '../../../src/engine/storage/storage';

/**
 * The acceptance suite every EngineStorage adapter must pass (design.md §5, after automerge-repo's
 * runStorageAdapterTests). Each adapter's test file calls it with a factory for a fresh, empty store.
 */
export function runStorageAdapterTests(name: string, open: () => Promise<EngineStorage>): void {
  describe(`${name} storage adapter`, () => {
    it('reads back what a batch wrote, and nothing for an unknown key', async () => {
      const s = await open();
      await s.writeBatch([
        { store: 'conversations', type: 'put', key: '1', value: { id: 1, name: 'Anna' } },
        { store: 'conversations', type: 'put', key: '2', value: { id: 2, name: 'Erik' } },
      ]);
      expect(await s.get('conversations', '1')).toEqual({ id: 1, name: 'Anna' });
      expect(await s.get('conversations', '3')).toBeUndefined();
      expect(await s.get('messages', '1')).toBeUndefined();
      await s.close();
    });

    it('keeps stores apart and lists a store in key order', async () => {
      const s = await open();
      await s.writeBatch([
        { store: 'drafts', type: 'put', key: 'b', value: 'second' },
        { store: 'drafts', type: 'put', key: 'a', value: 'first' },
        { store: 'meta', type: 'put', key: 'a', value: 42 },
      ]);
      expect(await s.getAll('drafts')).toEqual([
        { key: 'a', value: 'first' },
        { key: 'b', value: 'second' },
      ]);
      expect(await s.getAll('meta')).toEqual([{ key: 'a', value: 42 }]);
      await s.close();
    });

    it('applies puts, deletes and clears in order within one batch', async () => {
      const s = await open();
      await s.writeBatch([
        { store: 'unread', type: 'put', key: '1', value: 1 },
        { store: 'unread', type: 'put', key: '2', value: 2 },
        { store: 'unread', type: 'delete', key: '1' },
        { store: 'outbox', type: 'put', key: 'x', value: 'x' },
        { store: 'outbox', type: 'clear' },
        { store: 'outbox', type: 'put', key: 'y', value: 'y' },
      ]);
      expect(await s.getAll('unread')).toEqual([{ key: '2', value: 2 }]);
      expect(await s.getAll('outbox')).toEqual([{ key: 'y', value: 'y' }]);
      await s.close();
    });

    it('stores copies: changing a value after writing or reading it changes nothing stored', async () => {
      const s = await open();
      const value = { list: [1, 2] };
      await s.writeBatch([{ store: 'settings', type: 'put', key: 'app', value }]);
      value.list.push(3);
      const read = await s.get<{ list: number[] }>('settings', 'app');
      read?.list.push(4);
      expect(await s.get('settings', 'app')).toEqual({ list: [1, 2] });
      await s.close();
    });

    it('keeps a Blob (an outbox attachment) with its bytes and type, and deletes it', async () => {
      const s = await open();
      const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
      await s.writeBatch([{ store: 'files', type: 'put', key: 'out_1', value: new Blob([bytes], { type: 'image/png' }) }]);
      const read = await s.get<Blob>('files', 'out_1');
      expect(read).toBeInstanceOf(Blob);
      expect(read?.type).toBe('image/png');
      expect(new Uint8Array(await (read as Blob).arrayBuffer())).toEqual(bytes);
      await s.writeBatch([{ store: 'files', type: 'delete', key: 'out_1' }]);
      expect(await s.get('files', 'out_1')).toBeUndefined();
      await s.close();
    });

    it('writes nothing of a batch that holds a value it cannot store', async () => {
      const s = await open();
      await expect(
        s.writeBatch([
          { store: 'meta', type: 'put', key: 'ok', value: 1 },
          { store: 'meta', type: 'put', key: 'bad', value: { fn: () => 1 } },
        ]),
      ).rejects.toThrow();
      expect(await s.get('meta', 'ok')).toBeUndefined();
      await s.close();
    });

    it('runs a read-modify-write in one transaction: later reads see its writes, a failure keeps none', async () => {
      const s = await open();
      await s.transact(['postings'], 'readwrite', async (tx) => {
        tx.put('postings', 'p|b', Uint16Array.of(1, 2));
        tx.put('postings', 'p|a', 'a');
        tx.put('postings', 'q', 'q');
        expect(await tx.get('postings', 'p|b')).toEqual(Uint16Array.of(1, 2));
      });
      expect(await s.transact(['postings'], 'readonly', (tx) => tx.getRange('postings', 'p|', 'p|\uffff'))).toEqual(['a', Uint16Array.of(1, 2)]);
      expect(await s.transact(['postings'], 'readonly', (tx) => tx.getPage('postings', 'p|a', 5))).toEqual([
        { key: 'p|b', value: Uint16Array.of(1, 2) },
        { key: 'q', value: 'q' },
      ]);
      await expect(
        s.transact(['postings'], 'readwrite', async (tx) => {
          tx.delete('postings', 'q');
          tx.put('postings', 'new', 1);
          await tx.get('postings', 'q');
          throw new Error('changed its mind');
        }),
      ).rejects.toThrow('changed its mind');
      expect(await s.get('postings', 'q')).toBe('q');
      expect(await s.get('postings', 'new')).toBeUndefined();
      await s.transact(['postings'], 'readwrite', async (tx) => tx.clear('postings'));
      expect(await s.getAll('postings')).toEqual([]);
      await s.close();
    });

    it('finds search documents by stid, and a chat’s or a channel’s oldest first, through their indexes', async () => {
      const s = await open();
      // As version 5 stored them too: no `group` field, a chat's or a channel's id (the other null).
      const doc = (id: number, chat: number | null, channel: number | null, createdAt: number, stid: string | null) => ({
        id,
        conversationId: chat,
        channelId: channel,
        createdAt,
        stid,
      });
      await s.writeBatch([
        { store: 'search', type: 'put', key: 'm:1', value: doc(1, 1, null, 300, 's1') },
        { store: 'search', type: 'put', key: 'm:2', value: doc(2, 1, null, 100, 's2') },
        { store: 'search', type: 'put', key: 'm:3', value: doc(3, 10, null, 50, null) },
        { store: 'search', type: 'put', key: 'm:5', value: doc(5, 1, null, 100, null) },
        { store: 'search', type: 'put', key: 'c:4', value: doc(4, null, 1, 100, null) },
      ]);
      const read = <T>(work: (tx: StoreTx) => Promise<T>) => s.transact(['search'], 'readonly', work);
      expect(await read((tx) => tx.indexKeys('search', 'stid', 's2', 's2'))).toEqual(['m:2']);
      expect(await read((tx) => tx.indexKeys('search', 'chat', [1], [1, []]))).toEqual(['m:2', 'm:5', 'm:1']);
      expect(await read((tx) => tx.indexKeys('search', 'chat', [1], [1, []], 1))).toEqual(['m:2']);
      expect(await read((tx) => tx.indexCount('search', 'chat', [1], [1, []]))).toBe(3);
      expect(await read((tx) => tx.indexKeys('search', 'chat', [1, []], [[]], 1))).toEqual(['m:3']);
      // The comment is only in its channel's index: a null field leaves a record out, as IndexedDB does.
      expect(await read((tx) => tx.indexKeys('search', 'channel', [1], [1, []]))).toEqual(['c:4']);
      await s.close();
    });
  });
}
