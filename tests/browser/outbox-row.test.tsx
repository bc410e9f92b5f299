import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { BehaviorSubject } from 'rxjs';
import type { AppSettings, EngineError, MessageWindowView, OutboxEntry } from '../../src/engine/api';
import { Composer } from '../../src/ui/chat/composer/Composer';
import { OutboxRow } from '../../src/ui/chat/message/OutboxRow';
import { render, SELF, unmount } from './composer-support';
import { defaultSettings, fakeTabEngine } from './support/fakeEngine';

/** A failed send's actions (docs/ui.md "Sending"): Retry where a retry can work, Edit and Discard where not. */

afterEach(unmount);

const failure = (status: number, message: string): EngineError => ({
  name: 'EngineError',
  status,
  message,
  fallback: 'Failed to send message',
  call: 'sendMessage',
});

const failed = (error: EngineError, text = 'Hello there'): OutboxEntry => ({
  localId: 'out_1',
  userId: SELF,
  conversationId: 10,
  comment: null,
  clientId: 7,
  text,
  quotedMessageId: null,
  attachment: null,
  createdAt: Date.now(),
  status: 'failed',
  error,
  attempts: 1,
});

function engineFor() {
  const drafts = new BehaviorSubject<Readonly<Record<number, string>>>({});
  return fakeTabEngine(
    {
      settings: new BehaviorSubject<AppSettings>(defaultSettings()),
      drafts,
      messages: new BehaviorSubject<MessageWindowView>({ messages: [], hasOlder: false, loaded: true }),
    },
    {
      setDraft: vi.fn(async () => undefined),
      retrySend: vi.fn(async () => undefined),
      discardSend: vi.fn(async () => undefined),
      sendMessage: vi.fn(async () => ({}) as never),
      editTarget: vi.fn(async () => null),
    },
  );
}

describe('a failed send', () => {
  it.each([
    ['en', 'Edit', 'Discard', 'Retry', 'Message'],
    ['sv', 'Redigera', 'Släng', 'Försök igen', 'Meddelande'],
  ] as const)('(%s) refused for good offers Edit and Discard; Edit puts its text back in the input', async (language, edit, discard, retry, label) => {
    const { engine, asTab } = engineFor();
    await render(
      <>
        <OutboxRow entry={failed(failure(403, 'You are no longer a member of this chat'))} />
        <Composer />
      </>,
      { engine: asTab, language },
    );
    await expect.element(page.getByRole('button', { name: discard })).toBeVisible();
    expect(page.getByRole('button', { name: retry }).elements()).toHaveLength(0);
    await userEvent.click(page.getByRole('textbox', { name: label }));
    await userEvent.keyboard('typed since');
    await userEvent.click(page.getByRole('button', { name: edit }));
    await expect.element(page.getByRole('textbox', { name: label })).toHaveValue('Hello there\ntyped since');
    expect(engine.discardSend).toHaveBeenCalledWith('out_1');
    expect(engine.retrySend).not.toHaveBeenCalled();
  });

  it.each([
    [0, 'Failed to send message'],
    [503, 'The service is briefly unavailable. Please try again in a moment.'],
    [401, 'Unauthorized'],
  ])('failed with %i offers Retry, as a retry can work', async (status, message) => {
    const { engine, asTab } = engineFor();
    await render(<OutboxRow entry={failed(failure(status, message))} />, { engine: asTab });
    await userEvent.click(page.getByRole('button', { name: 'Retry' }));
    expect(engine.retrySend).toHaveBeenCalledWith('out_1');
    expect(page.getByRole('button', { name: 'Edit' }).elements()).toHaveLength(0);
  });
});
