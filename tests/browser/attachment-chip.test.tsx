import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { AttachmentChip } from '../../src/ui/chat/composer/AttachmentChip';
import { fakeTabEngine } from './support/fakeEngine';
import { mount, unmountAll } from './support/mount';

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
});
