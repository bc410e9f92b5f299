import { describe, expect, it } from 'vitest';
import { call, useTestServer } from '../support/server';
import { CLIENT_DIR, createChat, signedInPerson, useChromium } from '../support/tabs';
import { png, sendAs } from './chat-view-support';

/**
 * Thumbnails first (docs/ui.md), against the real server: a chat shows a picture's thumbnail (the WebP the
 * server made at upload, docs/server.md "Uploads"), and the original is asked for only when the viewer opens.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const TEXTS = {
  'en-US': { open: 'Open image harbour.png', viewer: 'Media viewer' },
  'sv-SE': { open: 'Öppna bilden harbour.png', viewer: 'Mediavisare' },
} as const;

describe.each(['en-US', 'sv-SE'] as const)('a picture in a chat (%s)', (locale) => {
  it('paints its thumbnail in the bubble and loads the original only in the viewer', async () => {
    const text = TEXTS[locale];
    const ada = await signedInPerson(chromium, s, 'Ada', { context: { locale, viewport: { width: 1000, height: 800 } } });
    const bob = await signedInPerson(chromium, s, 'Bob');
    const chatId = await createChat(ada.page, 'Bob', bob.user.phone);

    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(png(1200, 800))], { type: 'image/png' }), 'harbour.png');
    const { file } = (
      await call<{ file: { id: string; url: string; thumbnail: string } }>(s.url, 'POST', '/v2/filestorage/file', {
        token: bob.user.token,
        body,
      })
    ).data;
    expect(file.thumbnail).toBe(file.url.replace(/\.png$/, '.thumb.webp'));
    const messageId = await sendAs(s, bob.user, chatId, 'The harbour', { attachment: { type: 'image', files: [{ id: file.id }] } });

    const asked: string[] = [];
    ada.page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await ada.page.goto(`${s.url}/inbox/${chatId}`);
    const bubble = ada.page.locator(`article:has([data-actions-for="${messageId}"])`);
    const image = bubble.getByRole('img', { name: 'harbour.png' });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(640);
    expect(await image.getAttribute('src')).toBe(file.thumbnail);
    expect(asked).toContain(file.thumbnail);
    expect(asked).not.toContain(file.url);

    await bubble.getByRole('button', { name: text.open }).click();
    const dialog = ada.page.getByRole('dialog', { name: text.viewer });
    await expect.poll(() => dialog.getAttribute('data-state')).toBe('loaded');
    const original = dialog.getByRole('img', { name: 'harbour.png' });
    expect(await original.getAttribute('src')).toBe(file.url);
    expect(await original.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1200);
    expect(asked).toContain(file.url);
  });
});
