import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { type Query, sql } from '../../server/db/store';
import { DEMO_USERS } from '../../server/seed/demoUsers';
import { seriousViolations } from '../support/axe';
import { useTestServer } from '../support/server';
import { CLIENT_DIR, openTab, signInAs, useChromium } from '../support/tabs';

/**
 * Issue 8: the community screens and comment threads, in Chromium against the reference server with its demo
 * world: Budi owns "Kopi Nusantara", Sari is an admin, Dewi, Agus and Putri are members, and Agus has not
 * joined the read-only channel "Resep & Tips". Each person has a browser profile of their own.
 */
const s = useTestServer({ clientDir: CLIENT_DIR, seedDemo: true });
const chromium = useChromium();

type Demo = (typeof DEMO_USERS)[number]['nickname'];
const phoneOf = (name: Demo) => DEMO_USERS.find((u) => u.nickname === name)?.phone ?? '';

/** `name` signed in, in a fresh profile, on `path`. */
async function as(name: Demo, path: string, language: 'en' | 'sv' = 'en'): Promise<Page> {
  const context = await chromium.context({ viewport: { width: 1280, height: 800 } });
  const page = await openTab(context, s.url);
  await signInAs(page, phoneOf(name));
  if (language !== 'en') await page.evaluate((l) => window.engine.setLanguage(l), language);
  await page.goto(s.url + path);
  return page;
}

const idOf = async (query: Query<{ id: number }>): Promise<number> => (await s.server.ctx.db.get(query))?.id ?? 0;
const kopi = () => idOf(sql`SELECT id FROM communities WHERE name = ${'Kopi Nusantara'}`);
const channel = async (name: string) =>
  idOf(sql`SELECT id FROM conversations WHERE name = ${name} AND community_id = ${await kopi()}`);
/** The announcement that asks readers to register in the comments. */
const kopdarPost = async () =>
  idOf(sql`SELECT id FROM messages WHERE conversation_id = ${await channel('Pengumuman')} AND message LIKE 'Kopdar bulan ini%'`);

const commentsCount = async () =>
  (await s.server.ctx.db.get<{ n: number }>(sql`SELECT comments_count AS n FROM messages WHERE id = ${await kopdarPost()}`))!.n;

/** The comments control under the post with this id (its name is its count, in the page's language). */
const commentsButton = (page: Page, postId: number) => page.locator(`[data-message-id="${postId}"] .msg-comments`);

describe('communities (issue 8)', () => {
  it('a member finds the community by search, opens it, joins the read-only channel from its info and sees it in the chats list', async () => {
    const agus = await as('Agus', '/explore');
    await agus.getByRole('heading', { name: 'Communities', exact: true }).waitFor();
    expect(await seriousViolations(agus)).toEqual([]);
    await agus.getByRole('searchbox', { name: 'Search communities' }).fill('kopi');
    await agus.getByRole('heading', { name: 'Search results' }).waitFor();
    await agus.getByRole('link', { name: /^Kopi Nusantara/ }).click();
    await agus.waitForURL(`${s.url}/explore/${await kopi()}`);
    await agus.getByRole('heading', { name: 'Channels' }).waitFor();
    expect(await seriousViolations(agus)).toEqual([]);
    // A member who may leave has the button; Resep & Tips is read-only and not joined yet.
    await agus.getByRole('button', { name: 'Leave community' }).waitFor();
    const recipes = agus.getByRole('link', { name: /^Resep & Tips/ });
    expect(await recipes.textContent()).toContain('Read-only · Not joined');
    await recipes.click();
    await agus.waitForURL(`${s.url}/explore/${await kopi()}/channels/${await channel('Resep & Tips')}`);
    await agus.getByText('Only community admins post here.').waitFor();
    expect(await seriousViolations(agus)).toEqual([]);
    await agus.getByRole('button', { name: 'Join channel' }).click();

    // It opens in the chat view and is in the chats list, named with its community.
    await agus.waitForURL(`${s.url}/inbox/${await channel('Resep & Tips')}`);
    const row = agus.locator(`.inbox-row[data-conversation-id="${await channel('Resep & Tips')}"]`);
    await expect.poll(() => row.textContent()).toContain('Kopi Nusantara');
    await agus.getByRole('heading', { name: 'Resep & Tips', level: 2 }).waitFor();
    await agus.getByText('Only community admins can send messages.').waitFor();

    // Not an admin: the announcements channel shows the notice instead of the input.
    await agus.goto(`${s.url}/inbox/${await channel('Pengumuman')}`);
    await agus.getByText('Only community admins can send announcements.').waitFor();
    expect(await agus.getByRole('textbox', { name: 'Message' }).count()).toBe(0);
    await agus.getByText('Kopi Nusantara · Announcements').waitFor();
  });

  it('a comment and a reply reach a member with the same thread open, live; the post counts them', async () => {
    const post = await kopdarPost();
    const before = await commentsCount();
    const dewi = await as('Dewi', `/inbox/${await channel('Pengumuman')}`);
    const putri = await as('Putri', `/inbox/${await channel('Pengumuman')}`);
    for (const page of [dewi, putri]) {
      await expect.poll(() => commentsButton(page, post).textContent()).toContain(`${before} comments`);
      await commentsButton(page, post).click();
      await page.getByRole('dialog', { name: /^Comments on “Kopdar bulan ini/ }).waitFor();
    }
    expect(await seriousViolations(putri)).toEqual([]);

    // Dewi comments: Putri sees it arrive.
    await dewi.getByRole('textbox', { name: 'Write a comment' }).fill('Dewi datang Sabtu, sampai jumpa!');
    await dewi.keyboard.press('Enter');
    const inThread = (page: Page, text: string) => page.getByRole('dialog').getByText(text, { exact: true });
    await inThread(putri, 'Dewi datang Sabtu, sampai jumpa!').waitFor();
    await expect.poll(() => commentsCount()).toBe(before + 1);

    // Dewi replies to her comment: Putri's thread shows its reply count at once, and the reply when opened.
    const dewiComment = dewi.getByRole('article', { name: 'Your comment' }).filter({ hasText: 'Dewi datang Sabtu' });
    await dewiComment.getByRole('button', { name: 'Reply to your comment' }).click();
    await dewi.getByRole('textbox', { name: 'Write a reply to your comment' }).fill('Saya bawa kopi Gayo.');
    await dewi.keyboard.press('Enter');
    // Sent: the pending reply gives way to the server's, shown once.
    await expect.poll(() => inThread(dewi, 'Saya bawa kopi Gayo.').count()).toBe(1);
    await expect.poll(() => dewi.getByRole('dialog').getByText('Sending').count()).toBe(0);
    const putriSees = putri.getByRole('article', { name: 'Comment by Dewi' }).filter({ hasText: 'Dewi datang Sabtu' });
    await putriSees.getByRole('button', { name: 'Show 1 reply' }).click();
    await inThread(putri, 'Saya bawa kopi Gayo.').waitFor();

    // The post's count follows in the chat view behind the dialog, for the others too.
    await putri.keyboard.press('Escape');
    await expect.poll(() => putri.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => commentsButton(putri, post).textContent()).toContain(`${before + 2} comments`);
    // Focus went back to the control that opened the thread.
    expect(await commentsButton(putri, post).evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('a reaction to a post shows its count to the others', async () => {
    const post = await kopdarPost();
    const putri = await as('Putri', `/inbox/${await channel('Pengumuman')}`);
    const dewi = await as('Dewi', `/inbox/${await channel('Pengumuman')}`);
    await putri.locator(`[data-actions-for="${post}"]`).getByRole('button', { name: 'Message actions' }).click();
    await putri.getByRole('menuitemcheckbox', { name: 'React with party' }).click();
    await expect.poll(() => dewi.getByRole('button', { name: '🎉 1 reaction' }).count()).toBe(1);
    // Who reacted is not shown in channels (spec §6): no tooltip names.
    await dewi.getByRole('button', { name: '🎉 1 reaction' }).hover();
    await dewi.waitForTimeout(500);
    expect(await dewi.getByRole('tooltip').count()).toBe(0);
  });

  it('a community admin has no Leave button; an unknown community says so, and Go Back returns to /explore', async () => {
    const sari = await as('Sari', `/explore/${await kopi()}`);
    await sari.getByText('You are an admin of this community.').waitFor();
    expect(await sari.getByRole('button', { name: 'Leave community' }).count()).toBe(0);

    await sari.goto(`${s.url}/explore/999999`);
    await sari.getByText('Community not found').waitFor();
    await sari.getByRole('link', { name: 'Go back' }).click();
    await sari.waitForURL(`${s.url}/explore`);
    await sari.getByRole('heading', { name: 'Communities', exact: true }).waitFor();
  });

  it('in Swedish: the explore list, the community and the comments control', async () => {
    const dewi = await as('Dewi', `/explore/${await kopi()}`, 'sv');
    await dewi.getByRole('heading', { name: 'Kanaler' }).waitFor();
    await dewi.getByRole('button', { name: 'Lämna gemenskapen' }).waitFor();
    await dewi.goto(`${s.url}/inbox/${await channel('Pengumuman')}`);
    const post = await kopdarPost();
    await expect.poll(() => commentsButton(dewi, post).textContent()).toMatch(/\d+ kommentarer/);
    await dewi.getByText('Bara gemenskapens administratörer kan skicka tillkännagivanden.').waitFor();
  });

  it('a Swedish user has no Communities entry, and /explore takes them to /inbox', async () => {
    const anna = await as('Anna', '/inbox');
    await anna.getByRole('navigation').getByRole('link', { name: 'Chats' }).waitFor();
    expect(await anna.getByRole('navigation').getByRole('link', { name: 'Communities' }).count()).toBe(0);
    await anna.goto(`${s.url}/explore`);
    await anna.waitForURL(`${s.url}/inbox`);
    await anna.goto(`${s.url}/explore/${await kopi()}`);
    await anna.waitForURL(`${s.url}/inbox`);
  });
});
