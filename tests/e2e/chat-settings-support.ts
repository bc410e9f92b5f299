import type { Page } from 'playwright';
import { expect } from 'vitest';
import type { CreatedConversationAnswer } from '../../src/protocol/api';
import type { AxeViolation } from '../support/axe';
import { call, type TestServer } from '../support/server';
import { current, type Person, signedInPerson } from '../support/tabs';
import { violationsInside } from './chat-view-support';

/** Helpers of the chat settings e2e tests (chat-settings*.test.ts). */

export type { Person };

/** A user with a REST token and a signed-in tab on a wide screen (the panel beside the chat), in English. */
export function person(
  chromium: Parameters<typeof signedInPerson>[0],
  s: TestServer,
  nickname: string,
  options: { country?: '46' | '62'; width?: number; locale?: string } = {},
): Promise<Person> {
  return signedInPerson(chromium, s, nickname, {
    country: options.country,
    context: { viewport: { width: options.width ?? 1300, height: 850 }, locale: options.locale ?? 'en-US' },
  });
}

/** A group made by `admin` over REST with the others as members (not admins). */
export async function createGroup(s: TestServer, admin: Person, name: string, members: Person[], broadcast = false) {
  const form: Record<string, string> = { name, force_group: '1' };
  if (broadcast) form.broadcast = '1';
  members.forEach((m, i) => {
    form[`member[${i}][name]`] = m.nickname;
    form[`member[${i}][type]`] = 'phone_nr';
    form[`member[${i}][value]`] = m.user.phone;
  });
  const answer = await call<CreatedConversationAnswer>(s.url, 'POST', '/v2/conversations', { token: admin.user.token, form });
  return answer.data.conversation.id;
}

/** A group made by `admin` (see createGroup), open in the tabs of `openFor` (the admin's alone by default). */
export async function openGroup(
  s: TestServer,
  admin: Person,
  name: string,
  members: Person[],
  options: { broadcast?: boolean; openFor?: Person[] } = {},
): Promise<number> {
  const groupId = await createGroup(s, admin, name, members, options.broadcast);
  for (const p of options.openFor ?? [admin]) await openChat(s, p, groupId, name);
  return groupId;
}

/** Opens a chat by its URL and waits for its header. */
export async function openChat(s: TestServer, p: Person, conversationId: number, heading: string): Promise<void> {
  await p.page.goto(`${s.url}/inbox/${conversationId}`);
  await expect.poll(() => p.page.getByRole('heading', { name: heading, exact: true, level: 2 }).count()).toBeGreaterThan(0);
}

export const settingsButton = (page: Page, name = 'Chat settings') => page.getByRole('button', { name, exact: true });
/** The right panel: an <aside>, so a complementary landmark named by its title. */
export const panel = (page: Page) => page.locator('aside.right-panel');
export const dialog = (page: Page) => page.getByRole('dialog');

/** Opens the chat settings panel from the chat header. */
export async function openSettings(page: Page, buttonName = 'Chat settings'): Promise<void> {
  await settingsButton(page, buttonName).click();
  await expect.poll(() => panel(page).isVisible()).toBe(true);
}

/** What the members list's rows of the open panel say to a screen reader: name, number and badge. */
export async function memberRows(page: Page): Promise<string[]> {
  return panel(page)
    .locator('.cs-member')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const copy = row.cloneNode(true) as HTMLElement;
        for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
        return (copy.textContent ?? '').trim();
      }),
    );
}

/** The ids of the conversations in the tab's engine list. */
export async function listedIds(page: Page): Promise<number[]> {
  return (await current(page, 'conversations')).map((item) => item.conversation.id);
}

/** The serious axe violations inside the right panel (other areas have their own tests). */
export function panelViolations(page: Page): Promise<AxeViolation[]> {
  return violationsInside(page, '.right-panel, dialog');
}
