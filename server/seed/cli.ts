import { openDatabase } from '../db/database';
import { seedDemo } from './demo';
import { DEMO_USERS } from './demoUsers';
import { generateBigGroup, generateConversations } from './history';
import { parseSeedArgs, type SeedOptions, USAGE, UsageError } from './options';

/** `npm run seed`: the demo world for a new database, then generated history for benchmarks. */
function run(options: SeedOptions): number {
  const { db, created } = openDatabase(options.dataDir);
  try {
    const now = Date.now();
    if (created) {
      seedDemo(db, now);
      console.log(`Seeded the demo world in ${options.dataDir}. Sign in with any of these numbers:`);
      for (const u of DEMO_USERS) console.log(`  ${u.phone}  ${u.nickname}`);
    } else {
      console.log(`Using the existing database in ${options.dataDir}.`);
    }
    const phone = options.userPhone ?? DEMO_USERS[0].phone;
    const user = db
      .prepare<[string], { id: number; nickname: string }>('SELECT id, nickname FROM users WHERE phone_nr = ?')
      .get(phone);
    if (!user) {
      if (options.groupMessages === 0 && options.conversations === 0) return 0;
      throw new UsageError(`No user has the number ${phone}. Sign in with it once, or pick another with --user.`);
    }
    const who = `${user.nickname || phone} (${phone})`;
    if (options.groupMessages > 0) {
      const started = performance.now();
      const big = generateBigGroup(db, user.id, options.groupMessages, now);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(
        `Made "Big group" (${big.stid}, id ${big.conversationId}) for ${who}: ${big.members} members, ` +
          `${big.messages} messages in ${seconds} s.`,
      );
    }
    if (options.conversations > 0) {
      const started = performance.now();
      const made = generateConversations(db, user.id, options.conversations, now);
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
    db.close();
  }
}

function main(): number {
  try {
    const parsed = parseSeedArgs(process.argv.slice(2), process.env);
    if (parsed.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    return run(parsed.options);
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

process.exitCode = main();
