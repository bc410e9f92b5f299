import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { type Query, sql } from '../../server/db/store';
import { DEMO_USERS } from '../../server/seed/demoUsers';
import { useTestServer } from '../support/server';
import { CLIENT_DIR, openTab, signInAs, useChromium } from '../support/tabs';

/**
 * Issue 23 (communities, channels and comments) in Chromium against the demo world: Dewi is in both
 * communities ("Kopi Nusantara" and her "Fotografi Bali", each with a "Pengumuman" channel), Budi only in
 * Kopi Nusantara.
 */
const s = useTestServer({ clientDir: CLIENT_DIR, seedDemo: true });
const chromium = useChromium();

type Demo = (typeof DEMO_USERS)[number]['nickname'];
const phoneOf = (name: Demo) => DEMO_USERS.find((u) => u.nickname === name)?.phone ?? '';

async function as(name: Demo, path: string, width: number): Promise<Page> {
  const context = await chromium.context({ viewport: { width, height: 844 }, locale: 'en-US' });
  const page = await openTab(context, s.url);
  await signInAs(page, phoneOf(name));
  await page.goto(s.url + path);
  return page;
}

const idOf = async (query: Query<{ id: number }>): Promise<number> => (await s.server.ctx.db.get(query))?.id ?? 0;
const communityId = (name: string) => idOf(sql`SELECT id FROM communities WHERE name = ${name}`);
const channelId = async (community: string, name: string) =>
  idOf(sql`SELECT id FROM conversations WHERE name = ${name} AND community_id = ${await communityId(community)}`);

describe('communities at 390 and 1280 px (issue 23)', () => {
  for (const width of [390, 1280]) {
    it(`at ${width} px the chats list shows each channel's whole community name, on its own line`, async () => {
      const dewi = await as('Dewi', '/inbox', width);
      const rows = dewi.locator('.inbox-row', { has: dewi.locator('.inbox-row__community') });
      await expect.poll(() => rows.count()).toBe(5);
      const shown = await rows.evaluateAll((links) =>
        links.map((link) => {
          const community = link.querySelector<HTMLElement>('.inbox-row__community') as HTMLElement;
          const name = (link.querySelector('.inbox-row__name') as HTMLElement).getBoundingClientRect();
          const box = community.getBoundingClientRect();
          return {
            name: link.querySelector('.inbox-row__name')?.textContent,
            community: community.textContent?.replace(/^, /, ''),
            whole: community.scrollWidth <= community.clientWidth,
            below: box.top >= name.bottom - 1,
            inside: box.bottom <= link.getBoundingClientRect().bottom,
          };
        }),
      );
      const announcements = shown.filter((r) => r.name === 'Pengumuman');
      expect(announcements.map((r) => r.community).sort()).toEqual(['Fotografi Bali', 'Kopi Nusantara']);
      for (const row of shown) expect(row, JSON.stringify(row)).toMatchObject({ whole: true, below: true, inside: true });
    });
  }

  it('a non-member of Fotografi Bali on its channel Galeri: Join channel is disabled until Join community, then opens it', async () => {
    const galeri = await channelId('Fotografi Bali', 'Galeri');
    const budi = await as('Budi', `/explore/${await communityId('Fotografi Bali')}/channels/${galeri}`, 390);
    const join = budi.getByRole('button', { name: 'Join channel' });
    await join.waitFor();
    await budi.getByText('Only members of Fotografi Bali can join Galeri. Join the community first.').waitFor();
    expect(await join.isDisabled()).toBe(true);
    await budi.getByRole('button', { name: 'Join community' }).click();
    await expect.poll(() => join.isEnabled()).toBe(true);
    expect(await budi.evaluate(() => document.activeElement?.textContent)).toBe('Join channel');
    await join.click();
    await budi.waitForURL(`${s.url}/inbox/${galeri}`);
    await budi.getByRole('heading', { name: 'Galeri', level: 2 }).waitFor();
  });

  it('at 390 px the reaction picker under Dewi’s comment shows all ten emoji, below the thread header, and reacts', async () => {
    const budi = await as('Budi', `/inbox/${await channelId('Kopi Nusantara', 'Pengumuman')}`, 390);
    await budi.getByRole('button', { name: '3 comments' }).click();
    const dewi = budi.getByRole('dialog').getByRole('article', { name: 'Comment by Dewi' });
    await dewi.getByRole('button', { name: 'Add a reaction' }).click();
    const picker = budi.getByRole('group', { name: 'Add a reaction' });
    await budi.locator('.comment__reaction-menu[data-placed]').waitFor();
    const boxes = await picker.getByRole('button').evaluateAll((buttons) => {
      const header = (document.querySelector('.thread__header') as HTMLElement).getBoundingClientRect();
      return buttons.map((b) => {
        const r = b.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return { visible: r.top >= header.bottom && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth, onTop: b.contains(hit) };
      });
    });
    expect(boxes).toHaveLength(10);
    for (const box of boxes) expect(box).toEqual({ visible: true, onTop: true });
    await picker.getByRole('button', { name: 'React with party' }).click();
    await dewi.locator('.reaction-chip', { hasText: '🎉' }).waitFor();
  });
});
