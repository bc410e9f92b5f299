import { configFromEnv } from '../config';
import { openStore } from '../db/open';
import { sql } from '../db/store';
import { seedDemo } from './demo';
import { DEMO_USERS } from './demoUsers';
import { generateBigGroup, generateConversations } from './history';
import { parseSeedArgs, type SeedOptions, USAGE, UsageError } from './options';

/**
 * `npm run seed`: the demo world for a new database, then generated history for benchmarks. The database is
 * the server's: PostgreSQL when DATABASE_URL is set, else SQLite in the data directory.
 */
async function run(options: SeedOptions): Promise<number> {
  const { databaseUrl } = configFromEnv(process.env, { dataDir: options.dataDir });
  const { store: db, created } = await openStore({ dataDir: options.dataDir, databaseUrl });
  const where = databaseUrl ? db.description : options.dataDir;
  try {
    const now = Date.now();
    if (created) {
      await seedDemo(db, now);
      console.log(`Seeded the demo world in ${where}. Sign in with any of these numbers:`);
      for (const u of DEMO_USERS) console.log(`  ${u.phone}  ${u.nickname}`);
    } else {
      console.log(`Using the existing database in ${where}.`);
    }
    const phone = options.userPhone ?? DEMO_USERS[0].phone;
    const user = await db.get<{ id: number; nickname: string }>(
      sql`SELECT id, nickname FROM users WHERE phone_nr = ${phone}`,
    );
    if (!user) {
      if (options.groupMessages === 0 && options.conversations === 0) return 0;
      throw new UsageError(`No user has the number ${phone}. Sign in with it once, or pick another with --user.`);
    }
    const who = `${user.nickname || phone} (${phone})`;
    if (options.groupMessages > 0) {
      const started = performance.now();
      const big = await generateBigGroup(db, user.id, options.groupMessages, now);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        `Made "Big group" (${big.stid}, id ${big.conversationId}) for ${who}: ${big.members} members, ` +
          `${big.messages} messages in ${seconds} s.`,
      );
    }
    if (options.conversations > 0) {
      const started = performance.now();
      const made = await generateConversations(db, user.id, options.conversations, now);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        `Made ${made.conversations} one-to-one chats for ${who} with ${made.messages} messages in ${seconds} s.`,
      );
    }
    if (!created && options.groupMessages === 0 && options.conversations === 0) {
      console.log('Nothing to generate: see --help for --group-messages and --conversations.');
    }
    return 0;
  } finally {
    await db.close();
  }
}

async function main(): Promise<number> {
  try {
    const parsed = parseSeedArgs(process.argv.slice(2), process.env);
    if (parsed.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    return await run(parsed.options);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`seed: ${error.message}`);
      console.error('Run "npm run seed -- --help" for the options.');
      return 2;
    }
    console.error(`seed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

process.exitCode = await main();
