/**
 * What `engine.d.ts` declares (issue 24; scripts/engine-types.ts bundles it at build): `window.engine`'s type
 * and every data type it takes and answers, types only, nothing the console cannot call.
 */
export type { TabEngine, EngineApi } from './api';
export type * from './contract/types';
export type * from './contract/restCalls';
export type * from './contract/restInputs';
export type * from '../protocol/entities';
export type * from '../protocol/api';
