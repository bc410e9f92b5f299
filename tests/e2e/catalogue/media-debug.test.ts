import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright';
import type { Attachment } from '../../../src/protocol/entities';
import { sql } from '../../../server/db/store';
import { call, type TestUser } from '../../support/server';
import { createChat } from '../../support/tabs';
import { png, sendAs } from '../chat-view-support';
import { type CatalogueEntry, type Stage, walkCatalogue } from './stage';

/** Spec §8 "Media" (in the chat and the viewer) and "Debug" (the password, saving and resetting the hosts). */

const PASSWORD = 'catalogue';

/** A file uploaded by `user`: its stored name (the last part of its URL) and URL. */
async function upload(s: Stage, user: TestUser, name: string): Promise<{ id: string; url: string; stored: string }> {
  const body = new FormData();
  body.append('file', new Blob([new Uint8Array(png(120, 80))], { type: 'image/png' }), name);
  const { file } = (
    await call<{ file: { id: string; url: string } }>(s.server.url, 'POST', '/v2/filestorage/file', { token: user.token, body })
  ).data;
  return { ...file, stored: file.url.split('/').pop() ?? '' };
}

/** The file and its thumbnail are gone from the server's disk (a lost volume): the server answers 404 for both. */
const loseFile = (s: Stage, stored: string) => {
  for (const name of [stored, stored.replace(/\.[a-z]+$/, '.thumb.webp')]) {
    rmSync(path.join(s.server.dataDir, 'files', name), { force: true });
  }
};

/** Ada's chat with Bob, who sent a picture; `patch` changes the stored attachment (as another server might send it). */
async function pictureFromBob(
  s: Stage,
  patch?: (attachment: Attachment, spare: { url: string; stored: string }) => Attachment,
  before: (picture: { stored: string }) => void = () => undefined,
): Promise<{ page: Page; messageId: number }> {
  const ada = await s.person('Ada');
  const bob = await s.user('Bob');
  const chatId = await createChat(ada.page, 'Bob', bob.phone);
  const picture = await upload(s, bob, 'harbour.png');
  const messageId = await sendAs(s.server, bob, chatId, 'A photo', { attachment: { type: 'image', files: [{ id: picture.id }] } });
  if (patch) {
    const spare = await upload(s, bob, 'spare.png');
    const db = s.server.server.ctx.db;
    const row = (await db.get<{ attachment: string }>(sql`SELECT attachment FROM messages WHERE id = ${messageId}`))!;
    const attachment = JSON.stringify(patch(JSON.parse(row.attachment) as Attachment, spare));
    await db.run(sql`UPDATE messages SET attachment = ${attachment} WHERE id = ${messageId}`);
  }
  before(picture);
  await ada.page.goto(`${s.url}/inbox/${chatId}`);
  return { page: ada.page, messageId };
}

const bubble = (page: Page, messageId: number) => page.locator(`article:has([data-actions-for="${messageId}"])`);

/** The debug screen unlocked with the build's password. */
async function unlockedDebug(s: Stage): Promise<Page> {
  const { page } = await s.tab('/debug');
  await page.getByLabel(s.t('debug.password')).fill(PASSWORD);
  await page.getByRole('button', { name: s.t('debug.unlock') }).click();
  await page.getByRole('heading', { name: s.t('debug.hosts.title') }).waitFor();
  return page;
}

/**
 * The disk is full from now on: inside the engine's SharedWorker (over the DevTools protocol) every new
 * IndexedDB transaction fails as a full disk makes it fail. Chromium's quota override does not reach
 * IndexedDB, so the fault is put where the engine meets the storage, as the proxy does for the server.
 */
async function fillDisk(s: Stage, page: Page): Promise<void> {
  const browser = page.context().browser();
  if (!browser) throw new Error('no browser');
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = (await cdp.send('Target.getTargets')) as {
      targetInfos: { targetId: string; type: string; url: string }[];
    };
    const engine = targetInfos.find((t) => t.type === 'shared_worker' && t.url.startsWith(s.url));
    if (!engine) throw new Error('no engine worker');
    const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: engine.targetId, flatten: false })) as {
      sessionId: string;
    };
    const answered = new Promise<void>((resolve) => {
      cdp.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
        if (event.sessionId === sessionId && (JSON.parse(event.message) as { id?: number }).id === 1) resolve();
      });
    });
    const expression = `IDBDatabase.prototype.transaction = function () {
      throw new DOMException('The disk is full', 'QuotaExceededError');
    }`;
    await cdp.send('Target.sendMessageToTarget', {
      sessionId,
      message: JSON.stringify({ id: 1, method: 'Runtime.evaluate', params: { expression } }),
    });
    await answered;
  } finally {
    await cdp.detach();
  }
}

const entries: CatalogueEntry[] = [
  {
    spec: 'Failed to load media',
    where: 'a picture in the chat',
    key: 'chatActions.media.failed',
    async provoke(s) {
      // In the chat: the picture's file is gone, so the bubble shows the placeholder with its retry.
      const { page, messageId } = await pictureFromBob(s, undefined, (picture) => loseFile(s, picture.stored));
      return bubble(page, messageId).locator('.att-unavailable');
    },
  },
  {
    spec: 'Failed to load media',
    where: 'the media viewer',
    key: 'chatActions.media.failed',
    async provoke(s) {
      // The bubble's preview loads, the full picture does not: the viewer says so.
      const { page, messageId } = await pictureFromBob(s, (a, spare) => {
        loseFile(s, spare.stored);
        return { ...a, url: spare.url, file_info: { ...a.file_info, url: spare.url } } as Attachment;
      });
      await bubble(page, messageId).getByRole('button', { name: s.t('chat.attachment.openImage', { name: 'harbour.png' }) }).click();
      return page.getByRole('dialog', { name: s.t('chatActions.media.viewer') });
    },
  },
  {
    spec: 'Audio not available',
    key: 'chat.attachment.audioUnavailable',
    async provoke(s) {
      const { page, messageId } = await pictureFromBob(s, (a, spare) => {
        loseFile(s, spare.stored);
        return { type: 'audio', name: 'voice.mp3', url: spare.url.replace(/\.png$/, '.mp3') } as Attachment;
      });
      return bubble(page, messageId);
    },
  },
  {
    spec: 'This attachment type is not supported',
    where: 'an unsupported attachment type',
    key: 'chat.attachment.unsupported',
    async provoke(s) {
      const { page, messageId } = await pictureFromBob(s, (a) => ({ ...a, type: 'hologram' }) as unknown as Attachment);
      return bubble(page, messageId);
    },
  },
  {
    spec: 'Incorrect password',
    key: 'debug.incorrectPassword',
    async provoke(s) {
      const { page } = await s.tab('/debug');
      await page.getByLabel(s.t('debug.password')).fill('open sesame');
      await page.getByRole('button', { name: s.t('debug.unlock') }).click();
      return page.locator('form');
    },
  },
  {
    spec: 'Failed to save the hosts',
    where: 'debug: saving the hosts',
    key: 'debug.hosts.saveFailed',
    async provoke(s) {
      const page = await unlockedDebug(s);
      await fillDisk(s, page);
      await page.getByRole('button', { name: s.t('debug.hosts.save') }).click();
      return page.locator('.debug-hosts');
    },
  },
  {
    spec: 'Failed to reset the hosts',
    where: 'debug: resetting the hosts',
    key: 'debug.hosts.resetFailed',
    async provoke(s) {
      const page = await unlockedDebug(s);
      await fillDisk(s, page);
      await page.getByRole('button', { name: s.t('debug.hosts.reset') }).click();
      return page.locator('.debug-hosts');
    },
  },
];

walkCatalogue('media and debug', entries, { build: { VITE_DEBUG_PASSWORD: PASSWORD } });
