import { describe, expect, it } from 'vitest';
import type { Language, RestCallName } from '../../../src/engine/api';
import { nextPhone, useTestServer } from '../../support/server';
import { isEngineError } from '../../../src/engine/api';
import { refusal, signIn, until, useEngines } from './support/liveEngines';

/** Every command refuses with an EngineError (issue 3), also for input only a console user can give. */

const server = useTestServer();
const { startEngine } = useEngines(server);

describe('refusals are EngineErrors', () => {
  it('for a send while signed out', async () => {
    const engine = await startEngine();
    expect(await refusal(engine.sendMessage(1, { text: 'hello' }))).toBe('Failed to send message');
  });

  it('for a send to a chat that does not exist, which queues nothing', async () => {
    const engine = await startEngine();
    await signIn(engine, 'Skriptare');
    for (const id of [99_999, 0, -1, 1.5, Number.NaN]) {
      const failure: unknown = await engine.sendMessage(id, { text: 'hello' }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(isEngineError(failure) && failure).toMatchObject({
        name: 'EngineError',
        call: 'sendMessage',
        message: 'Invalid conversation ID provided',
      });
    }
    expect(await until(engine.outbox(), () => true)).toEqual([]);
  });

  it("for a text over the server's limit, which queues nothing", async () => {
    const engine = await startEngine();
    await signIn(engine, 'Långrandig');
    const { conversation } = await engine.call('createConversation', { members: [{ name: 'Vän', value: nextPhone() }] });
    expect(await refusal(engine.sendMessage(conversation.id, { text: 'x'.repeat(10_001) }))).toBe(
      'A message can be at most 10000 characters',
    );
    // The limit counts the text as sent: trimmed.
    await engine.sendMessage(conversation.id, { text: ` ${'x'.repeat(10_000)} ` });
    expect((await until(engine.outbox(), () => true)).map((e) => e.text.length)).toEqual([10_002]);
  });

  it("for a send to another user's chat, while a chat made elsewhere a moment ago takes the send", async () => {
    const owner = await startEngine();
    await signIn(owner, 'Ägare');
    const member = await startEngine();
    const { phone } = await signIn(member, 'Medlem');
    const { conversation: group } = await owner.call('createConversation', {
      name: 'Bokcirkeln',
      members: [{ name: 'Medlem', value: phone }],
    });
    const { conversation: secret } = await owner.call('createConversation', { members: [{ name: 'Vän', value: nextPhone() }] });
    expect(await refusal(member.sendMessage(secret.id, { text: 'hej' }))).toBe('Invalid conversation ID provided');
    // The member's engine has not loaded the list since it was added: the server says the chat is theirs.
    const entry = await member.sendMessage(group.id, { text: 'hej' });
    expect(entry.conversationId).toBe(group.id);
  });

  it('for a language that is not one of the two', async () => {
    const engine = await startEngine();
    expect(await refusal(engine.setLanguage('de' as Language))).toBe('Invalid parameters provided');
  });

  it('for a call name that does not exist', async () => {
    const engine = await startEngine();
    const call = engine.call.bind(engine) as (name: RestCallName) => Promise<unknown>;
    expect(await refusal(call('noSuchCall' as RestCallName))).toBe('Invalid parameters provided');
  });
});
