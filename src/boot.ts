import { startEngineWorkerEarly } from './worker/earlyWorker';

// The page's first script, before the app's (index.html): see earlyWorker.ts.
startEngineWorkerEarly();
