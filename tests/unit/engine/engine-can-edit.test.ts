import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/protocol/entities';
import { nextPhone, useTestServer } from '../../support/server';
import { refusal, signIn, until, useEngines } from './support/liveEngines';

/**
 * Issue 23: the README's `canEdit(m)` from the console. A console user holds the message itself (from
 * `messages(c)`): it is judged as its id is, and an argument that is neither rejects instead of answering false.
 */

const s = useTestServer();
const { startEngine } = useEngines(s);

describe('canEdit', () => {
  it('takes the message or its id, and refuses anything else', async () => {
    const engine = await startEngine();
    await signIn(engine, 'Editor');
    const { conversation } = await engine.call('createConversation', { members: [{ name: 'Friend', value: nextPhone() }] });
    await engine.openConversation(conversation.id);
    await engine.sendMessage(conversation.id, { text: 'fix me later' });
    const view = await until(engine.messages(conversation.id), (w) => w.messages.some((m) => m.message === 'fix me later'));
    const mine = view.messages.find((m) => m.message === 'fix me later') as Message;

    expect(await engine.canEdit(mine.id)).toBe(true);
    expect(await engine.canEdit(mine)).toBe(true);
    // Not loaded here: as for any message this engine does not hold.
    expect(await engine.canEdit(999_999_999)).toBe(false);
    expect(await engine.canEdit({ ...mine, id: 999_999_999 })).toBe(false);
    // 0 names no message: false, not a refusal (the engine-killed test and the recovery bench probe with it).
    expect(await engine.canEdit(0)).toBe(false);

    for (const wrong of ['1', null, {}, -1, 1.5, { id: '1' }] as unknown[]) {
      expect(await refusal(engine.canEdit(wrong as number)), JSON.stringify(wrong)).toBe('Invalid parameters provided');
    }
  });
});
