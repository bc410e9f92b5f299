import type { DemoIds } from './demoUsers';
import { DAY, HOUR, MIN } from './time';
import type { MemberSpec, SeedWriter } from './writer';

interface ChannelPlan {
  name: string;
  description: string;
  kind: 'announcements' | 'open' | 'read_only';
  members: number[];
}

/**
 * The Indonesian communities: "Kopi Nusantara" with an announcements feed and two channels full of posts,
 * comments (one a reply) and reactions, and the small "Fotografi Bali" that Budi, Sari and Agus have not
 * joined, so the explore screen has something to find.
 */
export async function seedCommunities(w: SeedWriter, u: DemoIds, now: number): Promise<void> {
  const ago = (ms: number) => now - ms;
  const { Budi, Sari, Dewi, Agus, Putri } = u;

  const kopiStart = ago(20 * DAY);
  const kopiMembers = [Budi, Sari, Dewi, Agus, Putri];
  const kopi = await w.community(
    {
      name: 'Kopi Nusantara',
      description: 'Komunitas pecinta kopi Indonesia, dari Gayo sampai Toraja.',
      countryCode: '62',
      ownerId: Budi,
      createdAt: kopiStart,
    },
    kopiMembers.map((userId) => ({ userId, admin: userId === Sari })),
  );
  const kopiAdmins = new Set([Budi, Sari]);
  const channel = (communityId: number, ownerId: number, admins: Set<number>, plan: ChannelPlan, createdAt: number) =>
    w.conversation(
      {
        name: plan.name,
        description: plan.description,
        isGroup: true,
        groupType: plan.kind === 'announcements' ? 'feed' : 'channel',
        announcements: plan.kind === 'announcements',
        readOnly: plan.kind === 'read_only',
        ownerId,
        communityId,
        createdAt,
      },
      plan.members.map(
        (userId): MemberSpec => ({
          userId,
          owner: userId === ownerId,
          admin: admins.has(userId),
          // Announcements take posts from admins holding create_posts (spec §6).
          canCreatePosts: admins.has(userId),
          joinedAt: createdAt,
        }),
      ),
    );
  const post = (channelId: number, userId: number, text: string, msAgo: number, pinned = false) =>
    w.message({ conversationId: channelId, userId, text, at: ago(msAgo), pinned });
  const comment = (channelId: number, postId: number, userId: number, text: string, msAgo: number, parent?: number) =>
    w.comment(channelId, postId, userId, text, ago(msAgo), parent ?? null);

  const news = await channel(
    kopi,
    Budi,
    kopiAdmins,
    { name: 'Pengumuman', description: 'Kabar resmi dari pengurus.', kind: 'announcements', members: kopiMembers },
    kopiStart,
  );
  await post(news, Budi, 'Selamat datang di Kopi Nusantara! ☕ Di sini kita berbagi cerita, resep, dan acara kopi.', 3 * DAY, true);
  const meetup = await post(
    news,
    Sari,
    'Kopdar bulan ini: Sabtu jam 10 pagi di Jakarta Selatan. Daftar lewat komentar di sini ya!',
    DAY + 2 * HOUR,
  );
  await comment(news, meetup, Dewi, 'Saya ikut! 🙌', DAY + HOUR + 30 * MIN);
  const bringFriend = await comment(news, meetup, Agus, 'Boleh bawa teman?', DAY + HOUR);
  const answer = await comment(news, meetup, Sari, 'Boleh, ajak saja!', DAY + 40 * MIN, bringFriend);
  await w.reaction(meetup, Dewi, '👍', ago(DAY + HOUR + 29 * MIN));
  await w.reaction(meetup, Putri, '❤️', ago(DAY + 10 * MIN));
  await w.commentReaction(answer, Agus, '👍', ago(DAY + 30 * MIN));
  await w.settle(news);

  const talk = await channel(
    kopi,
    Budi,
    kopiAdmins,
    { name: 'Diskusi Umum', description: 'Ngobrol santai soal kopi.', kind: 'open', members: kopiMembers },
    kopiStart,
  );
  const kintamani = await post(talk, Dewi, 'Ada yang pernah coba kopi Kintamani? Rasanya fruity banget.', 2 * DAY);
  const budiSays = await comment(talk, kintamani, Budi, 'Pernah! Cocok diseduh pakai V60.', 2 * DAY - 20 * MIN);
  await comment(talk, kintamani, Putri, 'Setuju, aromanya seperti jeruk.', 2 * DAY - 35 * MIN);
  await w.reaction(kintamani, Agus, '☕', ago(2 * DAY - 5 * MIN));
  await w.reaction(kintamani, Sari, '☕', ago(2 * DAY - 4 * MIN));
  await w.commentReaction(budiSays, Dewi, '❤️', ago(2 * DAY - 15 * MIN));
  const grinder = await post(talk, Agus, 'Rekomendasi grinder manual untuk pemula?', DAY + 3 * HOUR);
  const tip = await comment(talk, grinder, Sari, 'Timemore C2 bagus dan harganya terjangkau.', DAY + 2 * HOUR);
  await comment(talk, grinder, Agus, 'Makasih, Kak!', DAY + HOUR + 50 * MIN, tip);
  await post(talk, Putri, 'Baru pulang dari Toraja, bawa oleh-oleh biji kopi. Siapa mau?', HOUR);
  await w.settle(talk);

  const recipes = await channel(
    kopi,
    Budi,
    kopiAdmins,
    {
      name: 'Resep & Tips',
      description: 'Resep dan tips dari pengurus.',
      kind: 'read_only',
      members: [Budi, Sari, Dewi, Putri],
    },
    kopiStart,
  );
  const esKopi = await post(
    recipes,
    Sari,
    'Resep es kopi susu gula aren: 1 shot espresso, 30 ml gula aren cair, 150 ml susu segar, dan es batu.',
    2 * DAY + 3 * HOUR,
  );
  await comment(recipes, esKopi, Dewi, 'Sudah saya coba, enak sekali!', 2 * DAY);
  await w.reaction(esKopi, Dewi, '🔥', ago(2 * DAY));
  await w.reaction(esKopi, Putri, '🔥', ago(DAY + 6 * HOUR));
  await post(recipes, Budi, 'Tips: simpan biji kopi di wadah kedap udara, jauh dari sinar matahari.', 5 * HOUR);
  await w.settle(recipes);

  const photoStart = ago(10 * DAY);
  const photoMembers = [Dewi, Putri];
  const photo = await w.community(
    {
      name: 'Fotografi Bali',
      description: 'Berbagi foto dan lokasi hunting di Bali.',
      countryCode: '62',
      ownerId: Dewi,
      createdAt: photoStart,
    },
    photoMembers.map((userId) => ({ userId })),
  );
  const photoAdmins = new Set([Dewi]);
  const photoNews = await channel(
    photo,
    Dewi,
    photoAdmins,
    { name: 'Pengumuman', description: 'Info hunting bersama.', kind: 'announcements', members: photoMembers },
    photoStart,
  );
  await post(photoNews, Dewi, 'Hunting sunrise di Pantai Sanur, Minggu jam 5 pagi. Semua boleh ikut!', 4 * DAY);
  await w.settle(photoNews);
  const gallery = await channel(
    photo,
    Dewi,
    photoAdmins,
    { name: 'Galeri', description: 'Foto terbaik minggu ini.', kind: 'open', members: photoMembers },
    photoStart,
  );
  await post(gallery, Putri, 'Sawah Jatiluwih pagi ini, kabutnya masih tebal 🌾', 2 * DAY + 7 * HOUR);
  await w.settle(gallery);
}
