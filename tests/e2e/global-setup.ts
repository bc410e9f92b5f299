import path from 'node:path';
import { buildClient } from '../support/buildClient';

/**
 * The e2e tests serve the built client, as `npm start` does: build it once per run. E2E_CLIENT_DIR puts the
 * build elsewhere, so two runs side by side do not overwrite each other's client.
 */
export default function setup(): void {
  buildClient(process.env.E2E_CLIENT_DIR ?? path.resolve(import.meta.dirname, '../../dist'));
}
