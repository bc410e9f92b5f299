import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sql } from '../../server/db/store';
import { generateBigGroup } from '../../server/seed/history';
import { useTestServer } from '../support/server';
import { CLIENT_DIR, useChromium } from '../support/tabs';
import { openChat, openSettings, panel, person } from './chat-settings-support';

/**
 * "Export chat" (issue 24) from chat settings in real Chromium against the real server: the readable HTML
 * of what the device has, with another member's hostile text shown as text, and the JSON of the whole
 * history from the server, each saved as a download.
 */
const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)> "Kafé" & ‮reversed';

describe('Export chat', () => {
  it('saves the device history as HTML and the whole server history as JSON', async () => {
    const anna = await person(chromium, s, 'Anna');
    const db = s.server.ctx.db;
    const group = await generateBigGroup(db, anna.user.id, 300, Date.now());
    const id = group.conversationId;
    const last = await db.get<{ id: number }>(sql`SELECT max(id) AS id FROM messages WHERE conversation_id = ${id}`);
    await db.run(sql`UPDATE messages SET message = ${HOSTILE} WHERE id = ${last!.id}`);
    const name = (await db.get<{ name: string }>(sql`SELECT name FROM conversations WHERE id = ${id}`))!.name;
    const total = (await db.get<{ n: number }>(sql`SELECT count(*) AS n FROM messages WHERE conversation_id = ${id}`))!.n;
    const page = anna.page;
    await openChat(s, anna, id, name);
    await openSettings(page);
    const section = panel(page).locator('[data-export-chat]');
    await section.scrollIntoViewIfNeeded();

    // Readable, from this device: the latest pages it loaded, the hostile text as text.
    const [html] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Export chat' }).click()]);
    expect(html.suggestedFilename()).toMatch(/^chat-.+-\d{4}-\d{2}-\d{2}\.html$/);
    const text = readFileSync((await html.path())!, 'utf8');
    expect(text).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(text).not.toMatch(/<(script|img)\b/i);
    expect(text).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    const onDevice = [...text.matchAll(/<p class="m[^"]*" id="m(\d+)"/g)].length;
    expect(onDevice).toBeGreaterThanOrEqual(20);
    expect(onDevice).toBeLessThan(total);
    await expect.poll(() => section.getByRole('status').textContent()).toMatch(new RegExp(`^Saved chat-.+\\.html \\(${onDevice} messages\\)\\.$`));

    // For scripts, the whole history from the server.
    await section.getByLabel('Data for scripts (JSON)').check();
    await section.getByLabel(/The whole history from the server/).check();
    const [json] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Export chat' }).click()]);
    const data = JSON.parse(readFileSync((await json.path())!, 'utf8')) as {
      source: string;
      conversation: { id: number };
      messages: { id: number; message: string; created_at: string }[];
    };
    expect(data.source).toBe('server');
    expect(data.conversation.id).toBe(id);
    expect(data.messages).toHaveLength(total);
    expect(data.messages.at(-1)?.message).toBe(HOSTILE);
    expect(data.messages.every((m, i) => i === 0 || m.id > data.messages[i - 1]!.id)).toBe(true);
    await anna.context.close();
  });

  it('shows its progress while it gathers a long history from the server, and Cancel stops it', async () => {
    const bo = await person(chromium, s, 'Bo', { locale: 'sv-SE' });
    const db = s.server.ctx.db;
    const group = await generateBigGroup(db, bo.user.id, 20_000, Date.now());
    const name = (await db.get<{ name: string }>(sql`SELECT name FROM conversations WHERE id = ${group.conversationId}`))!.name;
    const page = bo.page;
    await openChat(s, bo, group.conversationId, name);
    await openSettings(page, 'Chattinställningar');
    const section = panel(page).locator('[data-export-chat]');
    await section.getByLabel(/Hela historiken från servern/).check();
    let downloads = 0;
    page.on('download', () => downloads++);
    await section.getByRole('button', { name: 'Exportera chatt' }).click();
    // 200 pages of 100: it is still gathering when the count first shows.
    await expect.poll(() => section.getByRole('status').textContent(), { timeout: 15_000 }).toMatch(/^Samlar meddelanden… [\d\s ]+ hittills$/u);
    await expect.poll(() => section.locator('progress').count()).toBe(1);
    await section.getByRole('button', { name: 'Avbryt' }).click();
    await expect.poll(() => section.getByRole('status').textContent()).toBe('Exporten avbröts.');
    expect(await section.locator('progress').count()).toBe(0);
    await page.waitForTimeout(500);
    expect(downloads).toBe(0);
    await bo.context.close();
  });
});
