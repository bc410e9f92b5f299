import path from 'node:path';
import { tmpdir } from 'node:os';
import buildTheClient from '../e2e/global-setup';
import { faultTable, readTally, resetTally } from './tally';

/**
 * The fault tests (issue 12) serve the built client as the e2e tests do (the same build, E2E_CLIENT_DIR
 * honoured), start the run's tally empty, and end the run with its one table.
 */
export default function setup(): () => void {
  process.env.FAULT_TALLY_FILE ??= path.join(tmpdir(), `messenger-fault-tally-${process.pid}.jsonl`);
  resetTally();
  buildTheClient();
  return () => {
    const records = readTally();
    console.log(`\nThe browser client under faults (FAULTS=${process.env.FAULTS ?? 'full'}):\n\n${faultTable(records)}\n`);
    resetTally();
  };
}
