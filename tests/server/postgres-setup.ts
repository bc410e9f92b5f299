import type { TestProject } from 'vitest/node';
import { PostgresProcess } from '../../scripts/cluster/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The throwaway PostgreSQL the `server-postgres` project runs the server's tests on (issue 21). */
    postgresUrl: string;
  }
}

/**
 * The `server-postgres` project (issue 21: the server's whole test suite on both stores): one throwaway
 * PostgreSQL (Debian's) for the run; each test server gets a schema of its own in it (tests/support/server.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const postgres = await PostgresProcess.start({ throwaway: true });
  project.provide('postgresUrl', postgres.url);
  return () => postgres.stop();
}
