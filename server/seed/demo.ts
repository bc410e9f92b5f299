import type { ServerContext } from '../context';
import type { Store } from '../db/store';
import { seedCommunities } from './demoCommunities';
import { DEMO_BOT, DEMO_USERS, type DemoIds } from './demoUsers';
import { DAY, HOUR, MIN } from './time';
import { type MessageSpec, SeedWriter } from './writer';

export { DEMO_BOT, DEMO_USERS } from './demoUsers';

export interface DemoWorld {
  users: DemoIds;
  botId: number;
}

/** Seeds the demo world into a new database. */
export async function seedDemoWorld(ctx: ServerContext): Promise<void> {
  await seedDemo(ctx.db, ctx.clock.now());
}

/**
 * Writes the demo world in one transaction, with times spread over the last few days before `now` so the
 * client's "Today" and "Yesterday" labels both show.
 */
export function seedDemo(db: Store, now: number): Promise<DemoWorld> {
  return db.transaction(async () => {
    const w = new SeedWriter(db);
    const ago = (ms: number) => now - ms;
    const joined = ago(30 * DAY);
    const users = {} as DemoIds;
    for (const u of DEMO_USERS) users[u.nickname] = await w.user(u.phone, u.country_code, u.nickname, joined);
    const botId = await w.user(DEMO_BOT.phone, DEMO_BOT.country_code, DEMO_BOT.nickname, joined);
    const { Anna, Erik, Sara, Budi, Sari } = users;

    // Anna and Erik: a reply, an edit, reactions, and receipts; read to the end on both sides.
    const chatStart = ago(DAY + 3 * HOUR);
    const chat = await w.conversation({ isGroup: false, ownerId: Erik, createdAt: chatStart }, [
      { userId: Erik, joinedAt: chatStart },
      { userId: Anna, joinedAt: chatStart },
    ]);
    const say = (conversationId: number, userId: number, text: string, msAgo: number, extra: Partial<MessageSpec> = {}) =>
      w.message({ conversationId, userId, text, at: ago(msAgo), ...extra });
    await say(chat, Erik, 'Hej Anna! Are we still on for fika tomorrow?', DAY + 3 * HOUR);
    await say(chat, Anna, 'Yes! 15:00 at Café Saturnus?', DAY + 2 * HOUR + 50 * MIN);
    await say(chat, Erik, "Perfect. I'll bring the book I promised you.", DAY + 2 * HOUR + 45 * MIN);
    await say(chat, Anna, 'Tack! 😊', DAY + 2 * HOUR + 40 * MIN);
    const late = await say(chat, Erik, 'Running ten minutes late, the tunnelbana is stuck at Slussen 🙈', 50 * MIN);
    await say(chat, Anna, "No stress, I'll grab us a table by the window", 48 * MIN, { quotedId: late });
    const bun = await say(chat, Erik, "You're the best. A kanelbulle for me, please!", 46 * MIN);
    await w.reaction(bun, Anna, '❤️', ago(45 * MIN));
    const umbrella = await say(chat, Anna, 'Great seeing you! You forgot your umbrella at the café ☔', 20 * MIN, {
      editedAt: ago(18 * MIN),
    });
    await w.reaction(umbrella, Erik, '😂', ago(16 * MIN));
    await say(chat, Erik, 'Oops, thanks! Going back to get it.', 15 * MIN);
    await w.settle(chat);

    // A group with a member added along the way; Anna has not read the last two messages.
    const clubStart = ago(2 * DAY + 5 * HOUR);
    const club = await w.conversation(
      {
        name: 'Bokklubben 📚',
        description: 'One book a month, fika at every meeting.',
        isGroup: true,
        ownerId: Anna,
        createdAt: clubStart,
      },
      [
        { userId: Anna, owner: true, joinedAt: clubStart },
        { userId: Erik, joinedAt: clubStart },
        { userId: Sara, joinedAt: clubStart },
      ],
    );
    await say(club, Anna, 'Welcome to the book club! First pick: Pippi Longstocking, for old times’ sake.', 2 * DAY + 5 * HOUR);
    await say(club, Sara, 'Classic! I still have my copy from when I was seven.', 2 * DAY + 4 * HOUR + 50 * MIN);
    await say(club, Erik, 'Can we invite Budi? He asked about it at work.', 2 * DAY + 4 * HOUR + 30 * MIN);
    const budiJoined = ago(2 * DAY + 4 * HOUR);
    await w.member(club, { userId: Budi, joinedAt: budiJoined });
    await w.userAddedEvent(club, Anna, { id: Budi, nickname: 'Budi' }, budiJoined);
    await say(club, Budi, 'Terima kasih! Happy to join, I will read the English translation.', 2 * DAY + 3 * HOUR + 50 * MIN);
    await say(club, Anna, 'Shall we meet on Sunday to talk about chapters 1–5?', DAY + HOUR);
    await say(club, Erik, 'Sunday works for me.', DAY + 50 * MIN);
    await say(club, Sara, "Sunday is good. I'll bake something.", 3 * HOUR);
    await say(club, Budi, 'Me too. See you all on Sunday!', 2 * HOUR);
    await w.settle(club, new Map([[Anna, 2]]));

    // A broadcast group: Erik broadcasts; Anna's reply is seen by her and the broadcaster only.
    const runStart = ago(3 * DAY);
    const runners = await w.conversation(
      {
        name: 'Södermalm Runners',
        description: 'Weekly routes and times. Replies go to the organiser.',
        isGroup: true,
        broadcast: true,
        ownerId: Erik,
        createdAt: runStart,
      },
      [
        { userId: Erik, owner: true, joinedAt: runStart },
        { userId: Anna, joinedAt: runStart },
        { userId: Sara, joinedAt: runStart },
      ],
    );
    await say(runners, Erik, 'Welcome to Södermalm Runners! Routes and times are posted here.', 3 * DAY);
    const tuesday = await say(runners, Erik, 'Tuesday 18:00: 8 km along Söder Mälarstrand. Meet at Mariatorget.', 2 * DAY + 2 * HOUR);
    await say(runners, Anna, "I'll be there!", 2 * DAY + HOUR, { quotedId: tuesday, audience: 'admins' });
    await say(runners, Erik, 'Great run tonight, 14 of us! Next week: intervals at Zinkensdamm.', DAY + 4 * HOUR);
    await say(runners, Erik, 'Rain forecast for Tuesday. We run anyway 🌧️', 4 * HOUR);
    await w.settle(runners);

    // The demo chat: everybody can read it, nobody can send in it.
    const demoStart = ago(3 * DAY + HOUR);
    const demo = await w.conversation(
      {
        name: 'Welcome to Messenger',
        description: 'A demo chat: read only.',
        isGroup: true,
        demo: true,
        ownerId: botId,
        createdAt: demoStart,
      },
      [
        { userId: botId, owner: true, joinedAt: demoStart },
        ...Object.values(users).map((userId) => ({ userId, joinedAt: demoStart })),
      ],
    );
    await say(demo, botId, 'Welcome to Messenger! 👋 This is a demo chat: you can read it, but not send in it.', 3 * DAY + HOUR, {
      pinned: true,
    });
    await say(
      demo,
      botId,
      'Things to try: reply to a message, react with an emoji, or edit what you sent within 45 minutes.',
      3 * DAY + HOUR - MIN,
    );
    await w.settle(demo);

    // An Indonesian one-to-one chat, one message unread by Budi.
    const kopiStart = ago(DAY + 5 * HOUR);
    const kopi = await w.conversation({ isGroup: false, ownerId: Sari, createdAt: kopiStart }, [
      { userId: Sari, joinedAt: kopiStart },
      { userId: Budi, joinedAt: kopiStart },
    ]);
    await say(kopi, Sari, 'Bud, jadi kirim sampel kopi Gayo ke Surabaya?', DAY + 5 * HOUR);
    await say(kopi, Budi, 'Jadi, besok pagi saya kirim lewat kurir.', DAY + 4 * HOUR);
    await say(kopi, Sari, 'Paketnya sudah sampai, terima kasih! 🙏', 30 * MIN);
    await w.settle(kopi, new Map([[Budi, 1]]));

    await seedCommunities(w, users, now);
    return { users, botId };
  });
}
