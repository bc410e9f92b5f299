import type { ServerContext } from '../context';

/** Seeds the demo world into a new database. */
export function seedDemoWorld(_ctx: ServerContext): void {}
