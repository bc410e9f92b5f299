import { act } from './support/act';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { Message } from '../../src/protocol/entities';
import { ChatUiProvider } from '../../src/ui/chat/ChatContext';
import { MessageList } from '../../src/ui/chat/list/MessageList';
import { MediaViewer } from '../../src/ui/chat/media/MediaViewer';
import type { Language } from '../../src/ui/i18n';
import { chat, listEngine, msg } from './chat-list-support';
import { mount, unmountAll } from './support/mount';
import '../../src/ui/chat/media/media.css';

/**
 * Thumbnails first (docs/ui.md): a bubble shows a picture's thumbnail, and only the viewer loads the
 * original, showing the thumbnail in its box until the original is there.
 */

// Two different pictures, so which one an <img> shows is plain from its src.
const THUMBNAIL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const ORIGINAL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

const TEXTS = {
  en: { open: 'Open image harbour.png', viewer: 'Media viewer', loading: 'Loading media…' },
  sv: { open: 'Öppna bilden harbour.png', viewer: 'Mediavisare', loading: 'Laddar media…' },
} as const;

afterEach(async () => {
  await unmountAll();
});

function picture(): Message {
  return msg(1, {
    message: 'The harbour',
    attachment: { type: 'image', url: ORIGINAL, thumbnail: THUMBNAIL, name: 'harbour.png', file_info: { url: ORIGINAL, dimensions: { width: 240, height: 160 } } },
  } as Partial<Message>);
}

async function renderChat(language: Language) {
  const engine = listEngine();
  engine.messages.next({ messages: [picture()], hasOlder: false, hasNewer: false, loaded: true });
  const conversation = chat({ last_message: picture() });
  await mount(
    <ChatUiProvider conversation={conversation} selfId={1}>
      <MessageList conversationId={10} latest={conversation.last_message} />
      <MediaViewer />
    </ChatUiProvider>,
    { engine: engine.asTab, language, tag: 'section', style: 'height: 500px; width: 600px', attributes: { class: 'chat-view' } },
  );
}

describe.each(['en', 'sv'] as const)('a picture in the chat (%s)', (language) => {
  const text = TEXTS[language];

  it('shows its thumbnail in the bubble, and the viewer loads the original with the thumbnail in its place meanwhile', async () => {
    // The original's src is held back until the test lets it through, so the viewer's wait can be seen.
    const held: HTMLImageElement[] = [];
    const setAttribute = Element.prototype.setAttribute;
    const hold = vi.spyOn(Element.prototype, 'setAttribute').mockImplementation(function (this: Element, name, value) {
      if (this instanceof HTMLImageElement && name === 'src' && value === ORIGINAL) held.push(this);
      else setAttribute.call(this, name, value);
    });
    const srcSetter = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src')?.set;
    const holdProperty = vi.spyOn(HTMLImageElement.prototype, 'src', 'set').mockImplementation(function (this: HTMLImageElement, value) {
      if (value === ORIGINAL) held.push(this);
      else srcSetter?.call(this, value);
    });
    try {
      await renderChat(language);
      const bubbleImage = page.getByRole('img', { name: 'harbour.png' });
      await expect.element(bubbleImage).toHaveAttribute('src', THUMBNAIL);
      // Nothing has asked for the original yet.
      expect(held).toHaveLength(0);
      expect(document.querySelectorAll(`img[src="${ORIGINAL}"]`)).toHaveLength(0);

      await userEvent.click(page.getByRole('button', { name: text.open }));
      const dialog = page.getByRole('dialog', { name: text.viewer });
      await expect.element(dialog).toHaveAttribute('data-state', 'loading');
      await expect.element(dialog.getByRole('status')).toHaveTextContent(text.loading);
      const preview = document.querySelector<HTMLImageElement>('.media-dialog img.media-preview');
      expect(preview?.getAttribute('src')).toBe(THUMBNAIL);
      const original = document.querySelector<HTMLImageElement>('.media-dialog img:not(.media-preview)');
      expect(held).toContain(original);
      const previewBox = preview?.getBoundingClientRect().toJSON() as DOMRect;

      await act(() => setAttribute.call(original as HTMLImageElement, 'src', ORIGINAL));
      await expect.element(dialog).toHaveAttribute('data-state', 'loaded');
      expect(document.querySelector('.media-dialog img.media-preview')).toBeNull();
      const shown = dialog.getByRole('img', { name: 'harbour.png' });
      await expect.element(shown).toHaveAttribute('src', ORIGINAL);
      // The original takes the box the thumbnail had: nothing jumps when it arrives.
      const originalBox = (original as HTMLImageElement).getBoundingClientRect().toJSON() as DOMRect;
      expect(originalBox).toEqual(previewBox);
    } finally {
      hold.mockRestore();
      holdProperty.mockRestore();
    }
  });
});
