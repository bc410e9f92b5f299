import { afterEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { AttachmentChip } from '../../src/ui/chat/composer/AttachmentChip';
import { fakeTabEngine } from './support/fakeEngine';
import { mount, unmountAll } from './support/mount';
import '../../src/ui/chat/composer/composer.css';

/** The chosen file's size in the composer reads as it does on the sent message (issue 22: one formatFileSize). */

const { asTab } = fakeTabEngine({});
const file = (bytes: number) => new File([new Uint8Array(bytes)], 'notes.pdf', { type: 'application/pdf' });

afterEach(unmountAll);

describe('the attachment chip', () => {
  it('rounds a size as the message does, one decimal below 100', async () => {
    await mount(<AttachmentChip file={file(15.5 * 1024)} onRemove={() => undefined} />, { engine: asTab, style: '' });
    await expect.element(page.getByText('15.5 KB')).toBeVisible();
  });

  it('writes the number the Swedish way in Swedish', async () => {
    await mount(<AttachmentChip file={file(1536)} onRemove={() => undefined} />, { engine: asTab, language: 'sv', style: '' });
    await expect.element(page.getByText('1,5 KB')).toBeVisible();
  });

  it('shows a picture as a thumbnail from an object URL, and revokes the URL when the chip goes', async () => {
    const revoke = vi.spyOn(URL, 'revokeObjectURL');
    const png = Uint8Array.from(
      atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='),
      (c) => c.charCodeAt(0),
    );
    const picture = new File([png], 'dot.png', { type: 'image/png' });
    await mount(<AttachmentChip file={picture} onRemove={() => undefined} />, { engine: asTab, style: '' });
    const chip = page.getByTestId('composer-attachment');
    await expect.poll(() => chip.element().querySelector('img.composer-chip-thumb')?.getAttribute('src') ?? '').toMatch(/^blob:/u);
    const thumb = chip.element().querySelector('img.composer-chip-thumb') as HTMLImageElement;
    await expect.poll(() => thumb.complete && thumb.naturalWidth).toBe(1);
    const url = thumb.src;
    expect(thumb.getBoundingClientRect().width).toBeGreaterThan(20);
    await unmountAll();
    expect(revoke).toHaveBeenCalledWith(url);
    revoke.mockRestore();
  });

  it('keeps the file icon for a video', async () => {
    const clip = new File([new Uint8Array(10)], 'clip.mp4', { type: 'video/mp4' });
    await mount(<AttachmentChip file={clip} onRemove={() => undefined} />, { engine: asTab, style: '' });
    await expect.element(page.getByText('clip.mp4')).toBeVisible();
    expect(page.getByTestId('composer-attachment').element().querySelector('img')).toBeNull();
  });
});
