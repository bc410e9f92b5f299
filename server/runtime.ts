/**
 * The Node.js the server runs on. The project needs Node 22 or later (README, "Quick start"); `npm install`
 * brings it as the `node` package, whose binary every npm script runs on. Started some other way (the
 * machine's own older `node server/start.ts`, or a process manager pointed at it), the server refuses with
 * one line instead of failing later on something Node 22 has and the older one lacks.
 */
export const MINIMUM_NODE_MAJOR = 22;

/** The line that refuses `version` (a `process.versions.node`), or null when it is new enough. */
export function unsupportedNodeMessage(version: string): string | null {
  const major = Number(version.split('.')[0]);
  if (Number.isInteger(major) && major >= MINIMUM_NODE_MAJOR) return null;
  return (
    `This server needs Node.js ${MINIMUM_NODE_MAJOR} or later, and this is Node.js ${version}. ` +
    'Start it with `npm start`, which runs the Node.js that `npm install` put in node_modules.'
  );
}

/** Exits with that line when the Node.js running this process is too old. */
export function exitOnUnsupportedNode(version: string = process.versions.node): void {
  const message = unsupportedNodeMessage(version);
  if (message === null) return;
  console.error(message);
  process.exit(1);
}
