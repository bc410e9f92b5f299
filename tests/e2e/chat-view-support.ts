import { deflateSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright';
import type { MessageAnswer } from '../../src/protocol/api';
import { type AxeViolation, seriousViolations } from '../support/axe';
import { expect } from 'vitest';
import { call, type TestServer, type TestUser } from '../support/server';
import { current, openTab, signInAs } from '../support/tabs';

/** Helpers of the chat view e2e tests (chat-view*.test.ts, chat-history*.test.ts). */

export { signInAs } from '../support/tabs';

let clientIds = 0;
/** Sends as `user` over REST and returns the stored message's id. */
export async function sendAs(
  s: TestServer,
  user: TestUser,
  conversationId: number,
  text: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  const answer = await call<MessageAnswer>(s.url, 'POST', `/v2/conversations/${conversationId}/messages`, {
    token: user.token,
    json: { client_id: (clientIds++ % 10_000) + 1, message: text, ...extra },
  });
  return answer.data.message.id;
}

function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** A valid one-colour PNG of the given size, made here so no test depends on a file on disk. */
export function png(width: number, height: number, rgb: [number, number, number] = [40, 120, 200]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const line = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) line.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => line));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * The serious axe violations inside the chat view (header, list, input): the chats list and the icon menu
 * beside it have their own tests.
 */
export function chatViewViolations(page: Page): Promise<AxeViolation[]> {
  return violationsInside(page, '.chat-view');
}

/** The serious axe violations of the page whose nodes are inside `selector` (or cannot be located). */
export async function violationsInside(page: Page, selector: string): Promise<AxeViolation[]> {
  const all = await seriousViolations(page);
  const inside = await page.evaluate(
    ([lists, within]) =>
      lists.map((targets) =>
        targets.filter((target) => {
          try {
            return document.querySelector(target)?.closest(within) != null;
          } catch {
            return true;
          }
        }),
      ),
    [all.map((v) => v.targets), selector] as const,
  );
  return all.map((v, i) => ({ ...v, targets: inside[i] ?? [] })).filter((v) => v.targets.length > 0);
}

/** The "#n" of every message the engine has loaded for a generated big group, oldest first, and whether newer ones exist. */
export async function loadedNumbers(page: Page, conversationId: number) {
  const view = await current(page, 'messages', conversationId);
  return { numbers: view.messages.map((m) => Number(/^#(\d+) /.exec(m.message)?.[1] ?? 0)), hasNewer: view.hasNewer === true };
}

/** One run of history: each message once, in order, none left out. */
export function expectNumberRun(numbers: readonly number[]) {
  const broken = numbers.findIndex((n, i) => i > 0 && n !== (numbers[i - 1] as number) + 1);
  expect(broken === -1 ? 'one run' : `${numbers[broken - 1]} then ${numbers[broken]}`).toBe('one run');
}

/**
 * A new tab in `context`, signed in as `phone`, with a generated big group of `count` messages open at its latest
 * (its last message, "#count", drawn) and the mouse over the middle of the list, where the wheel goes.
 */
export async function openAtLatest(context: BrowserContext, url: string, phone: string, conversationId: number, count: number): Promise<Page> {
  const page = await openTab(context, url);
  await signInAs(page, phone);
  await page.goto(`${url}/inbox/${conversationId}`);
  const log = page.getByRole('log');
  await expect.poll(() => log.getByText(new RegExp(`^#${count} `)).count()).toBe(1);
  const box = await log.boundingBox();
  if (!box) throw new Error('the list is not on the page');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  return page;
}
