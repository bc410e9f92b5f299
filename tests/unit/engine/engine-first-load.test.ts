import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { fetchTransport, type HttpTransport } from '../../../src/engine/rest';
import { useTestServer } from '../../support/server';
import { until, useEngines } from './support/liveEngines';

const { signedInEngine } = useEngines(useTestServer());

describe('the first page of a chat never opened', () => {
  it('keeps a message that arrived by socket while the page was on its way', async () => {
    // The page answer is held back until `beforeAnswer` ran: the server answered before the message existed.
    let beforeAnswer: (() => Promise<void>) | null = null;
    const transport: HttpTransport = {
      request: async (request) => {
        const response = await fetchTransport.request(request);
        const hold = beforeAnswer;
        if (hold && request.method === 'GET' && /\/messages$/.test(request.url)) {
          beforeAnswer = null;
          const body = await response.json();
          await hold();
          return { status: response.status, json: async () => body };
        }
        return response;
      },
      upload: (request) => fetchTransport.upload(request),
    };
    const anna = await signedInEngine('Anna', { transport });
    const erik = await signedInEngine('Erik');
    const { conversation } = await erik.engine.call('createConversation', { members: [{ name: 'Anna', value: anna.phone }] });
    await erik.engine.call('sendMessage', conversation.id, { clientId: 1, message: 'one' });
    await until(anna.engine.conversation(conversation.id), (c) => c?.conversation.last_message?.message === 'one');

    beforeAnswer = async () => {
      await erik.engine.call('sendMessage', conversation.id, { clientId: 2, message: 'two' });
      await until(anna.engine.conversation(conversation.id), (c) => c?.conversation.last_message?.message === 'two');
    };
    await anna.engine.openConversation(conversation.id);
    expect(beforeAnswer).toBeNull();
    const view = await firstValueFrom(anna.engine.messages(conversation.id));
    expect(view.messages.map((m) => m.message)).toEqual(['one', 'two']);

    // And the window goes on taking new messages.
    await erik.engine.call('sendMessage', conversation.id, { clientId: 3, message: 'three' });
    await until(anna.engine.messages(conversation.id), (w) => w.messages.map((m) => m.message).join() === 'one,two,three');
  });
});
