import type { Page } from 'playwright';
import { call } from '../../support/server';
import { png } from '../chat-view-support';
import { chatSetup, composer, messageWith, openChat } from './chatSetup';
import { type CatalogueEntry, type Stage, walkCatalogue } from './stage';

/**
 * Spec §8 "Messages", the attachment upload of "Files", and the composer's file alerts: sending, editing,
 * reacting, deleting and hiding in an open chat whose call the proxy refuses (or drops: a network error).
 */

const SEND = /^\/v2\/conversations\/\d+\/messages$/;
const UPLOAD = /^\/v2\/filestorage\/file$/;
const EDIT = /^\/v2\/conversations\/\d+\/edit_message$/;
const REACTIONS = /^\/v2\/conversations\/\d+\/messages\/\d+\/reactions$/;
const DELETE = /^\/v2\/conversations\/\d+\/delete\/messages$/;
const HIDE = /^\/v2\/conversations\/\d+\/hide_messages$/;

/** A chat open in Me's tab with Friend's "Hello" and Me's "Mine". */
async function openedChat(s: Stage) {
  const setup = await chatSetup(s, { theirs: ['Hello'], mine: ['Mine'] });
  await openChat(s, setup);
  await messageWith(setup.page, 'Mine').waitFor();
  return setup;
}

/** Opens the action menu of the message with this text and chooses the item of that accessible name. */
async function choose(page: Page, text: string, s: Stage, item: string): Promise<void> {
  await messageWith(page, text).getByRole('button', { name: s.t('chatActions.menu.open') }).click();
  await page.getByRole('menu').getByRole(item === 'react' ? 'menuitemcheckbox' : 'menuitem', {
    name: item === 'react' ? s.t('chatActions.menu.reactWith', { name: s.t('chatActions.reactions.thumbsUp') }) : item,
  }).click();
}

/** The failed send at the bottom of the chat: its error (spec §8: the server's, or the fallback). */
const failedSend = (page: Page) => page.locator('.msg-outbox.msg-failed .msg-error');

async function reactionRefused(s: Stage, network: boolean) {
  const { page } = await openedChat(s);
  s.proxy.fail('POST', REACTIONS, network ? { kind: 'drop' } : { kind: 'refuse', status: 400 });
  await choose(page, 'Hello', s, 'react');
  return messageWith(page, 'Hello').locator('.message-actions-problem');
}

/** Me's 👍 on Friend's "Hello" is there (made over REST), and taking it back is refused. */
async function unreactRefused(s: Stage, network: boolean) {
  const setup = await chatSetup(s, { theirs: ['Hello'] });
  const view = await call<{ messages: { id: number; message: string }[] }>(
    s.server.url,
    'GET',
    `/v2/conversations/${setup.conversationId}/messages`,
    { token: setup.me.token },
  );
  const hello = view.data.messages.find((m) => m.message === 'Hello');
  if (!hello) throw new Error('no Hello');
  await call(s.server.url, 'POST', `/v2/conversations/${setup.conversationId}/messages/${hello.id}/reactions`, {
    token: setup.me.token,
    json: { reaction: '👍' },
  }).then((r) => r.data);
  await openChat(s, setup);
  const chip = messageWith(setup.page, 'Hello').locator('.reaction-chip');
  await chip.waitFor();
  s.proxy.fail('DELETE', REACTIONS, network ? { kind: 'drop' } : { kind: 'refuse', status: 400 });
  await chip.click();
  return messageWith(setup.page, 'Hello').locator('.reaction-bar [role="alert"]');
}

async function deleteRefused(s: Stage, forEverybody: boolean) {
  const { page } = await openedChat(s);
  s.proxy.fail('POST', forEverybody ? DELETE : HIDE);
  await choose(page, 'Mine', s, s.t('chatActions.menu.delete'));
  const dialog = page.getByRole('dialog');
  await dialog
    .getByRole('button', { name: forEverybody ? s.t('chatActions.deleteDialog.forEverybody') : s.t('chatActions.deleteDialog.forMe') })
    .click();
  return dialog.getByRole('alert');
}

const entries: CatalogueEntry[] = [
  {
    spec: 'Failed to send message',
    where: 'a message',
    key: 'failures.sendMessage',
    async provoke(s) {
      const { page } = await openedChat(s);
      // A 4xx is final: the send stays failed with its error (a 5xx or no answer would be tried again).
      s.proxy.fail('POST', SEND, { kind: 'refuse', status: 400 });
      await composer(s, page).fill('Will not go');
      await composer(s, page).press('Enter');
      return failedSend(page);
    },
  },
  {
    spec: 'Failed to upload image',
    where: 'an attachment',
    key: 'failures.uploadImage',
    async provoke(s) {
      const { page } = await openedChat(s);
      s.proxy.fail('POST', UPLOAD, { kind: 'refuse', status: 400 });
      await page.locator('.composer input[type="file"]').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: png(8, 8) });
      await page.getByRole('button', { name: s.t('chatActions.composer.send') }).click();
      return failedSend(page);
    },
  },
  {
    spec: 'Failed to edit message',
    key: 'failures.editMessage',
    async provoke(s) {
      const { page } = await openedChat(s);
      s.proxy.fail('POST', EDIT);
      await choose(page, 'Mine', s, s.t('chatActions.menu.edit'));
      await composer(s, page).fill('Mine, edited');
      await composer(s, page).press('Enter');
      return page.locator('.composer-problem');
    },
  },
  {
    spec: 'Failed to add reaction',
    key: 'failures.addReaction',
    provoke: (s) => reactionRefused(s, false),
  },
  {
    spec: 'Network error occurred while adding a reaction',
    key: 'failures.addReactionNetwork',
    provoke: (s) => reactionRefused(s, true),
  },
  {
    spec: 'Failed to remove reaction',
    key: 'failures.removeReaction',
    provoke: (s) => unreactRefused(s, false),
  },
  {
    spec: 'Network error occurred while removing a reaction',
    key: 'failures.removeReactionNetwork',
    provoke: (s) => unreactRefused(s, true),
  },
  {
    spec: 'Failed to delete messages',
    key: 'failures.deleteMessages',
    provoke: (s) => deleteRefused(s, true),
  },
  {
    spec: 'Failed to hide messages',
    key: 'failures.hideMessages',
    provoke: (s) => deleteRefused(s, false),
  },
  {
    // Spec §8 "An unsupported file type or too-large file alerts".
    spec: 'File type not supported',
    key: 'chatActions.composer.fileTypeNotSupported',
    async provoke(s) {
      const { page } = await openedChat(s);
      await page.locator('.composer input[type="file"]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes') });
      return page.locator('.composer-problem');
    },
  },
  {
    spec: 'File size too large',
    key: 'chatActions.composer.fileTooLarge',
    async provoke(s) {
      const { page } = await openedChat(s);
      // A picture over 50 MB, made in the page (no 50 MB crosses the DevTools protocol).
      await page.locator('.composer input[type="file"]').evaluate((input: HTMLInputElement) => {
        const big = new File([new Uint8Array(50 * 1024 * 1024 + 1)], 'huge.png', { type: 'image/png' });
        const files = new DataTransfer();
        files.items.add(big);
        input.files = files.files;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      });
      return page.locator('.composer-problem');
    },
  },
  // Receipts go in the background (sent again later, or given up on a refusal), and the receipts of the
  // user's own messages come with the chat's socket events too: a failure is logged, never put in front of
  // the reader. A script meets the texts through the console's raw calls.
  {
    spec: 'Failed to update message status',
    key: 'failures.updateStatus',
    async provoke(s) {
      const setup = await chatSetup(s, { theirs: ['Hello'] });
      s.proxy.fail('POST', /^\/v1\/conversations\/\d+\/messages\/\d+$/);
      return { rejected: await rejection(setup.page, 'sendReceipt', setup.conversationId) };
    },
  },
  {
    spec: 'Failed to fetch DLR status',
    key: 'failures.fetchDlrs',
    async provoke(s) {
      const setup = await chatSetup(s, { mine: ['Mine'] });
      s.proxy.fail('GET', /^\/v2\/conversations\/\d+\/dlrs$/);
      return { rejected: await rejection(setup.page, 'getDlrs', setup.conversationId) };
    },
  },
];

/** The message the console's raw call rejects with ('accepted' if it did not). */
function rejection(page: Page, name: 'sendReceipt' | 'getDlrs', id: number): Promise<string> {
  return page.evaluate(
    ([call, conversationId]) =>
      (call === 'sendReceipt'
        ? window.engine.call('sendReceipt', conversationId, 1, 'read')
        : window.engine.call('getDlrs', conversationId)
      ).then(
        () => 'accepted',
        (error: { message?: string }) => error.message ?? String(error),
      ),
    [name, id] as const,
  );
}

walkCatalogue('messages', entries);
