import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { NotificationRequest } from '../../../src/engine/api';
import { useTestServer } from '../../support/server';
import { signIn, until, useEngines } from './support/liveEngines';

const s = useTestServer();
const { startEngine } = useEngines(s);

const muteOf = async (engine: Awaited<ReturnType<typeof startEngine>>, id: number) =>
  (await firstValueFrom(engine.conversation(id)))?.conversation.member.mute;

/** Muting a chat (issue 9): the user's own devices follow, notifications stop for that chat only. */
describe('muting a chat against the reference server', () => {
  it('mutes at once on this device and by socket on the other, silences only that chat, and unmutes', async () => {
    const laptop = await startEngine();
    const phone = await startEngine();
    const erikEngine = await startEngine();
    const anna = await signIn(laptop, 'Anna');
    await signIn(phone, null, anna.phone);
    const erik = await signIn(erikEngine, 'Erik');
    const { conversation: quiet } = await laptop.call('createConversation', {
      members: [{ name: 'Erik', value: erik.phone }],
    });
    const { conversation: loud } = await laptop.call('createConversation', {
      members: [{ name: 'Erik', value: erik.phone }],
      name: 'Loud',
      forceGroup: true,
    });
    await laptop.refreshConversations();
    await phone.refreshConversations();
    await until(phone.connection(), (c) => c === 'online');

    const mute = await laptop.muteConversation(quiet.id, '8h');
    expect(mute).toMatchObject({ type: '8h', until: expect.stringMatching(/^\d+$/) });
    expect(mute?.time_zone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    // This device shows it with the answer; the other device by the socket's conversation_edit.
    expect(await muteOf(laptop, quiet.id)).toEqual(mute);
    await until(phone.conversation(quiet.id), (c) => c?.conversation.member.mute?.type === '8h');
    expect(await muteOf(phone, loud.id)).toBeNull();
    // Erik's view of the chat is his own: Anna's mute is not his.
    const erikSees = await erikEngine.call('getConversation', quiet.id, { messageCount: 0 });
    expect(erikSees.conversation.member.mute).toBeNull();

    // Erik writes in both chats: only the unmuted one is notified.
    const shown: NotificationRequest[] = [];
    laptop.setNotificationPermission('granted');
    laptop.setTabState('laptop-tab', { visible: true, focused: true, openConversationId: null });
    laptop.notifications('laptop-tab').subscribe((n) => shown.push(n));
    await erikEngine.call('sendMessage', quiet.id, { clientId: 1, message: 'to the quiet chat' });
    await erikEngine.call('sendMessage', loud.id, { clientId: 2, message: 'to the loud chat' });
    await until(laptop.conversation(loud.id), (c) => c?.conversation.last_message?.message === 'to the loud chat');
    await until(laptop.conversation(quiet.id), (c) => c?.conversation.last_message?.message === 'to the quiet chat');
    expect(shown.map((n) => n.conversationId)).toEqual([loud.id]);

    await expect(laptop.muteConversation(quiet.id, 'unmute')).resolves.toBeNull();
    expect(await muteOf(laptop, quiet.id)).toBeNull();
    await until(phone.conversation(quiet.id), (c) => c?.conversation.member.mute === null);
    await erikEngine.call('sendMessage', quiet.id, { clientId: 3, message: 'heard again' });
    await expect.poll(() => shown.map((n) => n.conversationId)).toEqual([loud.id, quiet.id]);

    await laptop.muteConversation(quiet.id, 'forever');
    expect(await muteOf(laptop, quiet.id)).toMatchObject({ type: 'forever', until: null });
  });

  it('refuses an unknown mute type or delivery mode, and sets delivery settings', async () => {
    const engine = await startEngine();
    await signIn(engine, 'Solo');
    const { conversation } = await engine.call('createConversation', { members: [{ name: 'X', value: '+46700000999' }] });
    await expect(engine.muteConversation(conversation.id, 'soon' as never)).rejects.toMatchObject({
      message: 'Invalid parameters provided',
    });
    await expect(engine.setDeliverySettings(conversation.id, 'loud' as never)).rejects.toMatchObject({
      message: 'Invalid parameters provided',
    });
    await expect(engine.setDeliverySettings(conversation.id, 'smart', 15)).resolves.toEqual({
      mode: 'smart',
      smart_mode_options: { interval_minutes: 15 },
    });
    await expect(engine.muteConversation(0, '8h')).rejects.toMatchObject({ message: 'Invalid conversation ID provided' });
  });
});
