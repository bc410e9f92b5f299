import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, useTestServer } from '../support/server';
import { CLIENT_DIR, createChat, signedInPerson, useChromium } from '../support/tabs';
import { png, sendAs } from './chat-view-support';

/**
 * A picture whose file is gone from the server's disk (issue 10): the server answers 404, the bubble shows
 * a quiet placeholder of the picture's size with "Failed to load media" instead of the browser's broken
 * image, and its Retry loads the picture once the file is back.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

describe('a picture that does not load', () => {
  it('shows the placeholder, no broken image, and Retry loads it once the file is back', async () => {
    const ada = await signedInPerson(chromium, s, 'Ada', { context: { viewport: { width: 1000, height: 800 } } });
    const bob = await signedInPerson(chromium, s, 'Bob');
    const chatId = await createChat(ada.page, 'Bob', bob.user.phone);

    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(png(240, 160))], { type: 'image/png' }), 'harbour.png');
    const { file } = (
      await call<{ file: { id: string; url: string } }>(s.url, 'POST', '/v2/filestorage/file', { token: bob.user.token, body })
    ).data;
    const messageId = await sendAs(s, bob.user, chatId, 'The harbour', { attachment: { type: 'image', files: [{ id: file.id }] } });
    // The picture and its thumbnail (what the bubble shows, docs/server.md "Uploads") are lost.
    const stored = path.join(s.dataDir, 'files', file.url.split('/').pop() ?? '');
    const thumbnail = stored.replace(/\.png$/, '.thumb.webp');
    const bytes = readFileSync(stored);
    const thumbnailBytes = readFileSync(thumbnail);
    rmSync(stored);
    rmSync(thumbnail);
    expect((await fetch(`${s.url}${file.url}`)).status).toBe(404);

    await ada.page.goto(`${s.url}/inbox/${chatId}`);
    const bubble = ada.page.locator(`article:has([data-actions-for="${messageId}"])`);
    const placeholder = bubble.locator('.att-unavailable');
    await expect.poll(() => placeholder.getByRole('alert').textContent()).toBe('Failed to load media');
    expect(await bubble.locator('img').count()).toBe(0);
    // The box keeps the space the picture takes, so nothing moves when it loads.
    const box = await placeholder.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(160);

    writeFileSync(stored, bytes);
    writeFileSync(thumbnail, thumbnailBytes);
    await placeholder.getByRole('button', { name: 'Retry' }).click();
    const image = bubble.getByRole('img', { name: 'harbour.png' });
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(240);
    expect(await bubble.locator('.att-unavailable').count()).toBe(0);
  });
});
