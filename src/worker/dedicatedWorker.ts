/**
 * The fallback where SharedWorker does not exist (Chrome on Android before 148, some webviews): every tab
 * starts this dedicated worker, and the workers elect a leader with the Web Locks API. Only the leader
 * starts an engine (so there is one socket); the others forward their tab's calls to it over a
 * BroadcastChannel link. When the leader's tab closes its lock is freed, the next worker in line starts
 * its engine from the shared IndexedDB and announces itself, and the followers switch to it.
 *
 * The tab sees the same Comlink interface as with the SharedWorker (portRemote.ts).
 */
import * as Comlink from 'comlink';
import { realClock } from '../engine/clock';
import { engineBackend } from './backend';
import { openBroadcastChannel, post } from './channel';
import { ClientHost } from './clientHost';
import { asLeaderMessage, LEADER_CHANNEL, LEADER_LOCK, randomId } from './linkProtocol';
import { LinkServer } from './linkServer';
import { ClientRegistry, holdLockForLife, workerLockName } from './liveness';
import { createPortRemote } from './portRemote';
import { RemoteBackend } from './remoteBackend';
import { startEngine } from './startEngine';
import { SwitchingBackend } from './switchingBackend';

const workerId = randomId();
const locks = (globalThis.navigator as Navigator | undefined)?.locks;
const ownLock = locks ? workerLockName(workerId) : null;
if (ownLock) holdLockForLife(ownLock);

let reloadRequested = false;
const requestReload = () => {
  reloadRequested = true;
};
const backend = new SwitchingBackend();
const leaderChannel = openBroadcastChannel(LEADER_CHANNEL);
let leading = false;
let remote: RemoteBackend | null = null;

// This worker's one client is the tab that started it; when the tab goes, so does the worker.
const tabHost = new ClientHost(backend, () => realClock.now());
Comlink.expose(createPortRemote(tabHost, () => reloadRequested), globalThis as unknown as Comlink.Endpoint);

function follow(leaderId: string): void {
  if (leading || leaderId === workerId) return;
  if (remote && !remote.isClosed && remote.leaderId === leaderId) return;
  remote?.close();
  const link: RemoteBackend = new RemoteBackend({
    leaderId,
    leaderChannel,
    openChannel: openBroadcastChannel,
    lock: ownLock,
    clock: realClock,
    onLost: () => {
      if (remote !== link) return;
      // Commands wait for the next leader instead of failing against a gone one.
      remote = null;
      backend.use(null);
      askWhoLeads();
    },
    onReload: requestReload,
  });
  remote = link;
  backend.use(link);
}

function askWhoLeads(): void {
  post(leaderChannel, { t: 'whoLeads' }, () => undefined);
}

async function lead(): Promise<void> {
  leading = true;
  remote?.close();
  remote = null;
  // Calls made while this worker's engine starts wait for it rather than fail on the old leader.
  backend.use(null);
  const engine = await startEngine(requestReload);
  const local = engineBackend(engine);
  backend.use(local);
  const server = new LinkServer({
    leaderId: workerId,
    backend: local,
    leaderChannel,
    openChannel: openBroadcastChannel,
    registry: new ClientRegistry(realClock),
    clock: realClock,
    reloadRequested: () => reloadRequested,
  });
  server.announce();
}

leaderChannel.addEventListener('message', (event) => {
  const message = asLeaderMessage(event.data);
  if (message?.t === 'leader') follow(message.leaderId);
});

if (locks) {
  askWhoLeads();
  // Granted when no other worker leads; held until this worker ends (its tab closes).
  void locks.request(LEADER_LOCK, async () => {
    await lead();
    await new Promise<never>(() => undefined);
  });
} else {
  // Without Web Locks there is no safe election: this tab runs its own engine (one socket per tab).
  console.warn('Web Locks are unavailable: this tab runs its own engine');
  void lead();
}
