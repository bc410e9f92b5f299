import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { type Kysely, type RawBuilder, type Transaction, sql } from 'kysely';

export { sql };

/** Which database a store runs on: SQLite in the data directory (the default) or PostgreSQL (DATABASE_URL). */
export type StoreDialect = 'sqlite' | 'postgres';

/** A statement, written once with Kysely's `sql` template and compiled for the store's dialect. */
export type Query<T = unknown> = RawBuilder<T>;

/** Told how long each statement took, by kind (the database-statement metric). */
export type StatementTimer = (kind: 'read' | 'write', seconds: number) => void;

interface TransactionState {
  readonly trx: Transaction<unknown>;
  /** Run once the transaction committed, in the order they were added; dropped when it rolls back. */
  readonly afterCommit: (() => void)[];
}

const READ = /^\s*(select|with)\b/i;

/** How often a transaction PostgreSQL rolled back to resolve a conflict is tried in all. */
const TRANSACTION_ATTEMPTS = 6;

/** PostgreSQL's serialization failure and deadlock: nothing wrong with the transaction, only its timing. */
function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40001' || code === '40P01';
}

/**
 * The database cannot be reached or is going away (PostgreSQL restarting, a connection cut, SQLite's file
 * locked past its wait): the request may succeed if tried again shortly, so it is answered 503, not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  // PostgreSQL: connection exceptions (08), shutting down or starting (57P01-57P03), too many connections (53300).
  if (/^08/.test(code) || /^57P0[123]$/.test(code) || code === '53300') return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) return true;
  if (e.name === 'SqliteError' && /^SQLITE_BUSY/.test(code)) return true;
  // pg's own texts for a connection that ended under a query.
  return typeof e.message === 'string' && /Connection terminated|connection is closed|Client has encountered a connection error/i.test(e.message);
}

/**
 * The server's one database handle, the same for both stores (issue 21): every statement goes through
 * `all`, `get` or `run`, and runs inside the caller's transaction when there is one. The transaction is found
 * through the async context rather than passed along, so a domain rule that reads inside `transaction(...)`
 * reads what that transaction wrote, on SQLite (one connection, taken in turns) and on PostgreSQL (a pool)
 * alike, without every function taking a transaction handle.
 */
export class Store {
  private readonly context = new AsyncLocalStorage<TransactionState>();
  private timer: StatementTimer | null = null;

  constructor(
    readonly dialect: StoreDialect,
    private readonly kysely: Kysely<unknown>,
    /** What the store's location is called in messages (the SQLite file, or the PostgreSQL database). */
    readonly description: string,
  ) {}

  /** Times every statement from now on (server/ops/metrics.ts). */
  timeStatements(timer: StatementTimer): void {
    this.timer = timer;
  }

  /** Every row the statement returns. */
  async all<T>(query: Query<T>): Promise<T[]> {
    return (await this.execute(query)).rows;
  }

  /** The statement's first row, if any. */
  async get<T>(query: Query<T>): Promise<T | undefined> {
    return (await this.execute(query)).rows[0];
  }

  /** Runs a statement for its effect; the number of rows it changed. Use `RETURNING` (both stores have it) for ids. */
  async run(query: Query<unknown>): Promise<number> {
    return Number((await this.execute(query)).numAffectedRows ?? 0n);
  }

  /** Whether the caller runs inside a transaction of this store. */
  inTransaction(): boolean {
    return this.context.getStore() !== undefined;
  }

  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. A transaction inside
   * another joins the outer one. What `afterCommit` was given inside runs once the outermost one committed.
   * `snapshot`: every read sees the database as it was at the first one (for readers on PostgreSQL).
   */
  async transaction<T>(fn: () => Promise<T>, options: { snapshot?: boolean } = {}): Promise<T> {
    if (this.context.getStore()) return fn();
    for (let attempt = 1; ; attempt++) {
      const afterCommit: (() => void)[] = [];
      let builder = this.kysely.transaction();
      // PostgreSQL reads each statement's own snapshot by default; a reader that needs its reads to agree asks
      // for one snapshot. SQLite's transactions always read one.
      if (options.snapshot && this.dialect === 'postgres') builder = builder.setIsolationLevel('repeatable read');
      try {
        const result = await builder.execute((trx) =>
          this.context.run({ trx: trx as Transaction<unknown>, afterCommit }, fn),
        );
        for (const task of afterCommit) task();
        return result;
      } catch (error) {
        // Two transactions that PostgreSQL had to part (a deadlock, or a snapshot another one overtook): the one
        // it rolled back runs again from the start, as if it had come a moment later.
        if (attempt >= TRANSACTION_ATTEMPTS || !isRetryable(error)) throw error;
        // After a pause that grows and differs between the two, so they do not meet again at once.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
      }
    }
  }

  /** Runs `task` once the current transaction commits (never if it rolls back); at once outside a transaction. */
  afterCommit(task: () => void): void {
    const state = this.context.getStore();
    if (state) state.afterCommit.push(task);
    else task();
  }

  async close(): Promise<void> {
    await this.kysely.destroy();
  }

  private async execute<T>(query: Query<T>) {
    const executor = this.context.getStore()?.trx ?? this.kysely;
    // Compiled once: its text tells the timer the statement's kind.
    const compiled = query.compile(executor);
    const timer = this.timer;
    if (!timer) return executor.executeQuery(compiled);
    const start = performance.now();
    try {
      return await executor.executeQuery(compiled);
    } finally {
      timer(READ.test(compiled.sql) ? 'read' : 'write', (performance.now() - start) / 1000);
    }
  }

}

/** `(a, b, c)` of an IN list; callers make sure the list is not empty (SQL has no empty list). */
export function list(values: readonly (number | string)[]): RawBuilder<unknown> {
  if (values.length === 0) throw new Error('an IN list needs at least one value');
  return sql`(${sql.join(values)})`;
}
