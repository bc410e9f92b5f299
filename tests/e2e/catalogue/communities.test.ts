import type { Locator, Page } from 'playwright';
import type { ChannelAnswer } from '../../../src/protocol/api';
import { type Query, sql } from '../../../server/db/store';
import { seedDemo } from '../../../server/seed/demo';
import { insertCommunity } from '../../support/fixtures';
import { call, signUp } from '../../support/server';
import { signInAs } from '../../support/tabs';
import { type CatalogueEntry, type SignedIn, type Stage, walkCatalogue } from './stage';

/**
 * Spec §8 "Comments" and "Communities", the generic texts where the community screens meet them, and the
 * failed sends and reactions of posts and comments, in the explore list, a community's details, a channel's
 * info, a channel in the chat view and a post's comment thread. Each block seeds the demo world once
 * ("Kopi Nusantara" with its announcements "Pengumuman", the open "Diskusi Umum" and the read-only "Resep &
 * Tips") plus an Indonesian community without channels; its people are new Indonesian users.
 */

interface World {
  kopi: number;
  news: number;
  talk: number;
  recipes: number;
  /** The announcement asking readers to register in its comments (it has comments). */
  kopdar: number;
  /** A community with no channels at all. */
  empty: number;
}

const world = (s: Stage): Promise<World> =>
  s.once('world', async () => {
    const { db } = s.server.server.ctx;
    const { users } = await seedDemo(db, Date.now());
    const id = async (query: Query<{ id: number }>) => (await db.get(query))!.id;
    const kopi = await id(sql`SELECT id FROM communities WHERE name = ${'Kopi Nusantara'}`);
    const channel = (name: string) => id(sql`SELECT id FROM conversations WHERE name = ${name} AND community_id = ${kopi}`);
    const news = await channel('Pengumuman');
    return {
      kopi,
      news,
      talk: await channel('Diskusi Umum'),
      recipes: await channel('Resep & Tips'),
      kopdar: await id(sql`SELECT id FROM messages WHERE conversation_id = ${news} AND message LIKE 'Kopdar bulan ini%'`),
      empty: (await insertCommunity(db, { name: 'Teh Tarik', ownerId: users.Budi, countryCode: '62' })).id,
    };
  });

/** A new Indonesian user (communities are for some countries only, spec §9) signed in in a fresh profile. */
async function indonesian(s: Stage, nickname: string, options: { keep?: boolean } = {}): Promise<SignedIn> {
  const user = await signUp(s.server.url, nickname, '62');
  const { context, page } = await s.tab('/login', options);
  await signInAs(page, user.phone);
  return { user, context, page };
}

/** Makes `who` a member of Kopi Nusantara (and so of its announcements) and of Diskusi Umum, over REST. */
async function joinKopi(s: Stage, who: SignedIn, w: World): Promise<SignedIn> {
  const token = who.user.token;
  await call(s.server.url, 'POST', `/v1/communities/${w.kopi}/join`, { token }).then((r) => r.data);
  await call(s.server.url, 'POST', `/v1/channels/${w.talk}/join`, { token }).then((r) => r.data);
  return who;
}

/** Someone who has not joined anything (kept for the block: the entries refuse every change they try). */
const newcomer = (s: Stage) => s.once('newcomer', () => indonesian(s, 'Nadia', { keep: true }));
/** A member of Kopi Nusantara and Diskusi Umum (kept for the block, likewise). */
const member = (s: Stage) => s.once('member', async () => joinKopi(s, await indonesian(s, 'Made', { keep: true }), await world(s)));
/** A member of their own, for an entry that leaves something behind (a failed send stays in the outbox). */
const freshMember = async (s: Stage) => joinKopi(s, await indonesian(s, 'Wayan'), await world(s));

async function at(s: Stage, who: Promise<SignedIn>, path: (w: World) => string): Promise<{ page: Page; w: World }> {
  const w = await world(s);
  const { page } = await who;
  await page.goto(`${s.url}${path(w)}`);
  return { page, w };
}

/** The explore list's body: its state, or the notice above a cached list. */
const exploreAlert = (page: Page) => page.locator('.explore__body').getByRole('alert');
/** Channel info's failure: in place of the channel, or above the channel as known. */
const channelAlert = (page: Page) => page.locator('section.explore').getByRole('alert');

/** The announcement's comment thread open, in the person's tab on the announcements channel. */
async function thread(s: Stage, who: Promise<SignedIn>): Promise<{ page: Page; dialog: Locator; w: World }> {
  const { page, w } = await at(s, who, (w) => `/inbox/${w.news}`);
  await page.locator(`[data-message-id="${w.kopdar}"] .msg-comments`).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  return { page, dialog, w };
}

/** Confirms the open dialog; a refusal shows inside it, the dialog staying open. */
async function confirm(s: Stage, page: Page, confirmKey: string): Promise<Locator> {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: s.t(confirmKey), exact: true }).click();
  return dialog.getByRole('alert');
}

const reactWithParty = (s: Stage) => s.t('chatActions.menu.reactWith', { name: s.t('chatActions.reactions.party') });

const COMMENTS = /^\/v1\/channels\/\d+\/post_comments/;
const CHANNEL = /^\/v1\/channels\/\d+$/;

/** A join answered with success but no community: nothing the client can use. */
const UNUSABLE = { kind: 'answer', status: 200, body: { success: true, data: {} } } as const;

const entries: CatalogueEntry[] = [
  // Comments
  {
    spec: 'Invalid message provided',
    key: 'errors.invalidMessage',
    async provoke(s) {
      // A blank comment (spec §5: a comment needs a message): the thread never sends one (issue 23: its Send
      // is disabled while the input holds only spaces), so only a script meets the engine's refusal.
      const { page, dialog, w } = await thread(s, member(s));
      await dialog.getByRole('textbox', { name: s.t('comments.input') }).fill('   ');
      if (!(await dialog.getByRole('button', { name: s.t('comments.send') }).isDisabled())) throw new Error('Send is enabled for a blank comment');
      const rejected = await page.evaluate(
        ([channel, post]) =>
          window.engine.addComment(channel, post, '  ').then(
            () => 'accepted',
            (error: { message?: string }) => error.message ?? String(error),
          ),
        [w.news, w.kopdar] as const,
      );
      return { rejected };
    },
  },
  {
    spec: 'Invalid message provided',
    where: 'a post',
    key: 'errors.invalidMessage',
    async provoke(s) {
      // A blank post from the console (the composer's Send is disabled for blank text): not the generic
      // "Failed to send message" (issue 23).
      const { page, w } = await at(s, member(s), (w) => `/inbox/${w.talk}`);
      const rejected = await page.evaluate(
        (channel) =>
          window.engine.createPost(channel, { text: ' ' }).then(
            () => 'accepted',
            (error: { message?: string }) => error.message ?? String(error),
          ),
        w.talk,
      );
      return { rejected };
    },
  },
  {
    spec: 'Network error occurred while fetching post comments',
    key: 'failures.fetchCommentsNetwork',
    async provoke(s) {
      s.proxy.fail('GET', COMMENTS, { kind: 'drop' });
      const { dialog } = await thread(s, member(s));
      return dialog.locator('.thread__state[role="alert"]');
    },
  },
  {
    spec: 'Failed to fetch comments',
    key: 'failures.fetchComments',
    async provoke(s) {
      s.proxy.fail('GET', COMMENTS, { kind: 'refuse', status: 500 });
      const { dialog } = await thread(s, member(s));
      return dialog.locator('.thread__state[role="alert"]');
    },
  },
  {
    spec: 'Failed to send message',
    where: 'a comment',
    key: 'failures.sendMessage',
    async provoke(s) {
      // A comment the server refuses: it stays in the thread, not sent, with the reason (and Retry / Discard).
      s.proxy.fail('POST', COMMENTS, { kind: 'refuse', status: 400 });
      const { dialog } = await thread(s, freshMember(s));
      await dialog.getByRole('textbox', { name: s.t('comments.input') }).fill('Saya ikut!');
      await dialog.getByRole('button', { name: s.t('comments.send') }).click();
      return dialog.locator('.comment--failed').getByRole('alert');
    },
  },
  {
    spec: 'Failed to add reaction',
    where: 'a comment',
    key: 'failures.addReaction',
    async provoke(s) {
      s.proxy.fail('POST', /^\/v1\/channels\/\d+\/add_comment_reaction$/, { kind: 'refuse', status: 500 });
      const { dialog } = await thread(s, member(s));
      const reactions = dialog.locator('.comment:not(.comment--reply) .comment__reactions').first();
      await reactions.getByRole('button', { name: s.t('comments.addReaction') }).click();
      // The picker lies over the thread (portalled into its dialog, issue 23), not inside the comment.
      await dialog.getByRole('group', { name: s.t('comments.addReaction') }).getByRole('button', { name: reactWithParty(s) }).click();
      return reactions.getByRole('alert');
    },
  },
  // Posts (channel messages in the chat view)
  {
    spec: 'Failed to send message',
    where: 'a post',
    key: 'failures.sendMessage',
    async provoke(s) {
      s.proxy.fail('POST', /^\/v2\/conversations\/\d+\/messages$/, { kind: 'refuse', status: 400 });
      const { page } = await at(s, freshMember(s), (w) => `/inbox/${w.talk}`);
      await page.getByRole('textbox', { name: s.t('chatActions.composer.label') }).fill('Ada yang punya kopi Toraja?');
      await page.keyboard.press('Enter');
      return page.locator('.msg-failed-actions').getByRole('alert');
    },
  },
  {
    spec: 'Network error occurred while adding a reaction',
    where: 'a post',
    key: 'failures.addReactionNetwork',
    async provoke(s) {
      s.proxy.fail('POST', /^\/v2\/conversations\/\d+\/messages\/\d+\/reactions$/, { kind: 'drop' });
      const { page, w } = await at(s, member(s), (w) => `/inbox/${w.news}`);
      const actions = page.locator(`[data-actions-for="${w.kopdar}"]`);
      await actions.getByRole('button', { name: s.t('chatActions.menu.open') }).click();
      await page.getByRole('menuitemcheckbox', { name: reactWithParty(s) }).click();
      return actions.getByRole('alert');
    },
  },
  // Communities
  {
    spec: 'Failed to join community',
    key: 'failures.joinCommunity',
    async provoke(s) {
      s.proxy.fail('POST', /^\/v1\/communities\/\d+\/join$/, { kind: 'refuse', status: 500 });
      const { page } = await at(s, newcomer(s), (w) => `/explore/${w.kopi}`);
      await page.getByRole('button', { name: s.t('explore.community.join') }).click();
      return page.locator('.community__card').getByRole('alert');
    },
  },
  {
    spec: 'An unexpected error occurred',
    key: 'errors.unexpected',
    async provoke(s) {
      // "Unexpected errors while joining or leaving": the join answered, but with nothing usable.
      s.proxy.fail('POST', /^\/v1\/communities\/\d+\/join$/, UNUSABLE);
      const { page } = await at(s, newcomer(s), (w) => `/explore/${w.kopi}`);
      await page.getByRole('button', { name: s.t('explore.community.join') }).click();
      return page.locator('.community__card').getByRole('alert');
    },
  },
  {
    spec: 'Failed to leave community',
    key: 'failures.leaveCommunity',
    async provoke(s) {
      s.proxy.fail('POST', /^\/v1\/communities\/\d+\/leave$/, { kind: 'refuse', status: 500 });
      const { page } = await at(s, member(s), (w) => `/explore/${w.kopi}`);
      await page.getByRole('button', { name: s.t('explore.community.leave') }).click();
      return confirm(s, page, 'explore.community.leaveConfirm');
    },
  },
  {
    spec: 'Community not found',
    key: 'explore.community.notFound',
    async provoke(s) {
      const { page } = await at(s, newcomer(s), () => '/explore/999999');
      return page.locator('.explore__not-found');
    },
  },
  {
    spec: 'No communities available',
    key: 'explore.none',
    async provoke(s) {
      // The server has none for this user.
      s.proxy.fail('GET', /^\/v1\/communities(\?|$)/, { kind: 'answer', status: 200, body: { success: true, data: { communities: [] } } });
      const { page } = await at(s, newcomer(s), () => '/explore');
      return page.locator('.explore__body .explore__state');
    },
  },
  {
    spec: 'No communities found matching your search.',
    key: 'explore.noneFound',
    async provoke(s) {
      const { page } = await at(s, newcomer(s), () => '/explore');
      await page.getByRole('searchbox', { name: s.t('explore.search') }).fill('zzz tidak ada');
      return page.locator('.explore__body .explore__state');
    },
  },
  {
    spec: 'No channels available',
    key: 'explore.community.noChannels',
    async provoke(s) {
      const { page } = await at(s, newcomer(s), (w) => `/explore/${w.empty}`);
      return page.locator('.community__channels .explore__state');
    },
  },
  {
    spec: 'No channel selected',
    key: 'failures.noChannelSelected',
    async provoke(s) {
      // A channel link whose channel part is no channel id.
      const { page } = await at(s, newcomer(s), (w) => `/explore/${w.kopi}/channels/none`);
      return channelAlert(page);
    },
  },
  {
    spec: 'Failed to load channel',
    key: 'failures.loadChannel',
    async provoke(s) {
      s.proxy.fail('GET', CHANNEL, { kind: 'refuse', status: 500 });
      const { page } = await at(s, newcomer(s), (w) => `/explore/${w.kopi}/channels/${w.recipes}`);
      return channelAlert(page);
    },
  },
  {
    spec: 'No channel data available',
    key: 'failures.noChannelData',
    async provoke(s) {
      // The channel's details answered without the channel.
      s.proxy.fail('GET', CHANNEL, { kind: 'answer', status: 200, body: { success: true, data: {} } });
      const { page } = await at(s, newcomer(s), (w) => `/explore/${w.kopi}/channels/${w.recipes}`);
      return channelAlert(page);
    },
  },
  {
    spec: 'Community ID not available',
    key: 'failures.communityIdMissing',
    async provoke(s) {
      // The channel as the server describes it, but without the community it belongs to.
      const w = await world(s);
      const { user } = await newcomer(s);
      const { channel } = (await call<ChannelAnswer>(s.server.url, 'GET', `/v1/channels/${w.recipes}`, { token: user.token })).data;
      const { community_id: _dropped, ...orphan } = channel;
      s.proxy.fail('GET', CHANNEL, { kind: 'answer', status: 200, body: { success: true, data: { channel: orphan } } });
      const { page } = await at(s, newcomer(s), (w) => `/explore/${w.kopi}/channels/${w.recipes}`);
      return channelAlert(page);
    },
  },
  {
    spec: 'Failed to leave channel',
    key: 'failures.leaveChannel',
    async provoke(s) {
      s.proxy.fail('POST', /^\/v1\/channels\/\d+\/leave$/, { kind: 'refuse', status: 500 });
      const { page } = await at(s, member(s), (w) => `/explore/${w.kopi}/channels/${w.talk}`);
      await page.getByRole('button', { name: s.t('explore.channel.leave') }).click();
      return confirm(s, page, 'explore.channel.leaveConfirm');
    },
  },
  // Generic
  {
    spec: 'Network error occurred',
    key: 'errors.network',
    async provoke(s) {
      // The explore list's call dropped.
      s.proxy.fail('GET', /^\/v1\/communities(\?|$)/, { kind: 'drop' });
      const { page } = await at(s, newcomer(s), () => '/explore');
      return exploreAlert(page);
    },
  },
];

walkCatalogue('communities, channels, posts and comments', entries);
