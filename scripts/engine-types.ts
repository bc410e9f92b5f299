import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDtsBundle } from 'dts-bundle-generator';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The rxjs that a query answers, as far as the console can use it: the app does not put rxjs's operators on
 * `window`, so a script subscribes and unsubscribes, and the file needs no rxjs beside it.
 */
const OBSERVABLE = `/** A query's answer: RxJS's Observable, as much of it as a script outside the app can use. */
export interface Observable<T> {
\tsubscribe(observer?: Partial<Observer<T>> | ((value: T) => void) | null): Subscription;
}
export interface Observer<T> {
\tnext(value: T): void;
\terror(error: unknown): void;
\tcomplete(): void;
}
export interface Subscription {
\tunsubscribe(): void;
\treadonly closed: boolean;
}`;

const WINDOW = `declare global {
\tinterface Window {
\t\t/** The messenger's engine, for scripting from the console (README "The engine and the console API"). */
\t\tengine: TabEngine;
\t}
\t/** The messenger's engine, for scripting from the console (README "The engine and the console API"). */
\tvar engine: TabEngine;
}`;

/**
 * `engine.d.ts`, which the app serves beside itself (issue 24): the type of `window.engine` and of all it
 * takes and answers, in one file with no imports, for a developer's editor (README says how).
 */
export function engineTypes(): string {
  const [bundle] = generateDtsBundle(
    [{ filePath: path.join(root, 'src/engine/consoleTypes.ts'), output: { noBanner: true, exportReferencedTypes: true } }],
    { preferredConfigPath: path.join(root, 'scripts/tsconfig.engine-types.json') },
  );
  if (bundle === undefined) throw new Error('dts-bundle-generator gave no bundle');
  const rxjs = /^import \{ Observable \} from 'rxjs';\n/m;
  if (!rxjs.test(bundle)) throw new Error(`engine.d.ts: expected rxjs's Observable as its only import`);
  const body = bundle.replace(rxjs, '');
  if (/^import /m.test(body)) throw new Error('engine.d.ts imports something besides rxjs: inline it');
  // Constants and functions the contract's types refer to stay declared for \`typeof\`, but are not exported:
  // none of them is on \`window\`, so a script that imported one would find nothing.
  const typesOnly = body.replace(/^export declare (const|function) /gm, 'declare $1 ');
  const banner = '// The type of `window.engine` in the messenger, generated from src/engine/api.ts. README: "Types for your editor".\n';
  return `${banner}${OBSERVABLE}\n${typesOnly}\n${WINDOW}\n\nexport {};\n`;
}

// `tsx scripts/engine-types.ts` prints it (the build runs it so, beside Vite's own work).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.stdout.write(engineTypes());
}
