import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { sql } from '../../../server/db/store';
import { TEST_PIN, useTestServer } from '../../support/server';
import { signIn, until, useEngines } from './support/liveEngines';

const s = useTestServer();
const { startEngine } = useEngines(s);

/** A whole 1×1 PNG: the server reads the type from its first bytes and keeps only pictures it can read (docs/server.md). */
const PNG = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex'));
const png = (size = PNG.length) => {
  const bytes = new Uint8Array(size);
  bytes.set(PNG);
  return new Blob([bytes], { type: 'image/png' });
};

/** Account editing (issue 9): the engine's updateProfile against the reference server. */
describe('editing the account against the reference server', () => {
  it('changes the nickname and picture for the user at once and for a contact live, and removes the picture', async () => {
    const annaEngine = await startEngine();
    const erikEngine = await startEngine();
    await signIn(annaEngine, 'Anna');
    const erik = await signIn(erikEngine, 'Erik');
    const { conversation } = await annaEngine.call('createConversation', { members: [{ name: 'Erik', value: erik.phone }] });
    await until(erikEngine.conversations(), (list) => list.some((c) => c.conversation.id === conversation.id));
    await until(erikEngine.connection(), (c) => c === 'online');

    const renamed = await annaEngine.updateProfile({ nickname: '  Anna Lind  ' });
    expect(renamed).toMatchObject({ status: 'ready', nickname: 'Anna Lind', avatarUrl: null });
    expect(await firstValueFrom(annaEngine.session())).toMatchObject({ nickname: 'Anna Lind' });
    // Erik's one-to-one chat is named after Anna: it follows by socket.
    await until(erikEngine.conversation(conversation.id), (c) => c?.conversation.name === 'Anna Lind');

    const pictured = await annaEngine.updateProfile({ image: png() });
    const avatarUrl = pictured.status === 'ready' ? pictured.avatarUrl : null;
    expect(avatarUrl).toMatch(/^\/|^http/);
    const erikSees = await until(erikEngine.conversation(conversation.id), (c) => c?.conversation.avatar.meta.is_default === false);
    expect(erikSees?.conversation.avatar.meta.url).toBeTruthy();

    const removed = await annaEngine.updateProfile({ image: null });
    expect(removed).toMatchObject({ nickname: 'Anna Lind', avatarUrl: null });
    await until(erikEngine.conversation(conversation.id), (c) => c?.conversation.avatar.meta.is_default === true);
  });

  it('refuses a bad nickname or picture before sending anything', async () => {
    const engine = await startEngine();
    const solo = await signIn(engine, 'Solo');
    const invalid = { message: 'Invalid parameters provided' };
    await expect(engine.updateProfile({ nickname: '   ' })).rejects.toMatchObject(invalid);
    await expect(engine.updateProfile({ nickname: 'x'.repeat(51) })).rejects.toMatchObject(invalid);
    await expect(engine.updateProfile({ image: new Blob(['text'], { type: 'text/plain' }) })).rejects.toMatchObject(invalid);
    await expect(engine.updateProfile({ image: png(3_145_729) })).rejects.toMatchObject(invalid);
    await expect(engine.updateProfile({})).rejects.toMatchObject(invalid);
    const uploads = await s.server.ctx.db.get<{ n: number }>(
      sql`SELECT COUNT(*) AS n FROM files WHERE purpose = 'avatar' AND owner_id = ${solo.userId}`,
    );
    expect(uploads?.n).toBe(0);
    expect(await firstValueFrom(engine.session())).toMatchObject({ nickname: 'Solo' });
  });
});

/** Signing in on a new browser (docs/ui.md "Signing in"): the session is shown once the account is known. */
describe('signing in with an account that has a nickname', () => {
  it('never shows the nickname step on the way to ready', async () => {
    const first = await startEngine();
    const { phone } = await signIn(first, 'Lovisa');
    const fresh = await startEngine();
    const seen: string[] = [];
    const subscription = fresh.session().subscribe((view) => seen.push(view.status));
    try {
      await fresh.requestPin(phone);
      const confirmed = await fresh.confirmPin(phone, TEST_PIN);
      expect(confirmed).toMatchObject({ status: 'ready', nickname: 'Lovisa' });
      expect(seen).toEqual(['unauthenticated', 'ready']);
    } finally {
      subscription.unsubscribe();
    }
  });

  it('shows it at once for a new account, which has none', async () => {
    const fresh = await startEngine();
    const seen: string[] = [];
    const subscription = fresh.session().subscribe((view) => seen.push(view.status));
    try {
      await signIn(fresh, 'Ny');
      expect(seen).toEqual(['unauthenticated', 'needsNickname', 'ready']);
    } finally {
      subscription.unsubscribe();
    }
  });
});
