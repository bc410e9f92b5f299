import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminIo, EXIT_OK } from '../../server/admin/command';
import { runMigrate } from '../../server/admin/migrate';
import { buildServer } from '../../server/app';
import { testConfig } from '../../server/config';
import { POSTGRES_MIGRATIONS } from '../../server/db/postgresSchema';
import { MIGRATIONS } from '../../server/db/schema';
import { sql } from '../../server/db/store';
import { type InProcessCluster, startInProcessCluster } from '../support/cluster';
import { call, signUp } from '../support/server';

/**
 * docs/server.md "Upgrading": a rolling restart across a schema change. The new build has one more, additive
 * migration; it is applied first (npm run migrate with the new build) while the old nodes serve, then each
 * node in turn drains and comes back as the new build on the same port behind HAProxy. Messages are sent
 * through the proxy the whole time, each retried with its client_id until answered (as the app's outbox
 * does): every one is stored exactly once.
 */

let cluster: InProcessCluster;

beforeAll(async () => {
  cluster = await startInProcessCluster(3, {}, { proxy: true });
});

afterAll(async () => {
  await cluster?.stop();
});

describe('upgrading a cluster', () => {
  it('rolls a restart across an additive migration with no message lost or doubled', async () => {
    const proxy = cluster.proxy?.url as string;
    const current = cluster.postgres ? POSTGRES_MIGRATIONS : MIGRATIONS;
    // The next release: an additive change the old build does not know of (a column with a default).
    const next = [...current, 'ALTER TABLE messages ADD COLUMN upgrade_test_note TEXT'];
    const anna = await signUp(proxy, 'Anna');
    const erik = await signUp(proxy, 'Erik');
    const chat = (
      await call<{ conversation: { id: number } }>(proxy, 'POST', '/v2/conversations', {
        token: anna.token,
        form: { 'member[0][type]': 'phone_nr', 'member[0][value]': erik.phone },
      })
    ).data.conversation.id;

    let answered = 0;
    let retries = 0;
    let sending = true;
    const sender = (async () => {
      for (let n = 1; sending; n++) {
        // Until answered, the same client_id: a send the node stored but could not answer is not stored twice.
        for (;;) {
          const result = await call(proxy, 'POST', `/v2/conversations/${chat}/messages`, {
            token: n % 2 ? anna.token : erik.token,
            json: { client_id: n, message: `m${n}` },
          }).catch(() => null);
          if (result && result.status < 300) break;
          retries += 1;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        answered = n;
      }
    })();
    const waitForMore = async () => {
      const from = answered;
      await expect.poll(() => answered).toBeGreaterThan(from + 5);
    };

    await waitForMore();
    // 1. The new build migrates (npm run migrate); the old nodes keep serving on the migrated schema.
    const lines: string[] = [];
    const io: AdminIo = {
      env: { DATA_DIR: cluster.dataDir, ...(cluster.postgres ? { DATABASE_URL: cluster.postgres.url } : {}) },
      out: (l) => lines.push(l),
      err: (l) => lines.push(l),
    };
    expect(await runMigrate([], io, next)).toBe(EXIT_OK);
    expect(lines.join('\n')).toContain(`migrated from schema version ${current.length} to ${next.length}`);
    await waitForMore();

    // 2. Each node in turn: drained (SIGTERM's path), then the new build on its port.
    for (const [i, node] of cluster.nodes.entries()) {
      await node.server.drain(5_000);
      const port = Number(new URL(node.url).port);
      const server = await buildServer(
        testConfig(cluster.dataDir, {
          port,
          redisUrl: cluster.redis.url,
          nodeId: `n${i + 1}-new`,
          ...(cluster.postgres ? { databaseUrl: cluster.postgres.url } : {}),
        }),
        { logStream: false, migrations: next },
      );
      cluster.nodes[i] = { server, url: await server.listen() };
      await waitForMore();
    }
    sending = false;
    await sender;

    const db = cluster.nodes[0]?.server.ctx.db;
    if (!db) throw new Error('no node');
    const stored = (await db.all<{ message: string }>(sql`SELECT message FROM messages WHERE conversation_id = ${chat} ORDER BY id`)).map(
      (m) => Number(m.message.slice(1)),
    );
    expect(stored).toEqual(Array.from({ length: answered }, (_, i) => i + 1));
    // The new column is there, and the new build writes beside the old rows.
    const column = await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM messages WHERE upgrade_test_note IS NULL AND conversation_id = ${chat}`);
    expect(Number(column?.n)).toBe(answered);
    console.log(`rolling restart across a migration: ${answered} messages answered, ${retries} retried sends, none lost or doubled`);
  });
});
