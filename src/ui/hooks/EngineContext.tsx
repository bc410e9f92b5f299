import { createContext, type ReactNode, useContext } from 'react';
import type { TabEngine } from '../../engine/api';

const EngineContext = createContext<TabEngine | null>(null);

/** Gives the tree this tab's engine (design.md §3: the UI holds no copy of shared state, only subscriptions). */
export function EngineProvider({ engine, children }: { engine: TabEngine; children: ReactNode }) {
  return <EngineContext.Provider value={engine}>{children}</EngineContext.Provider>;
}

export function useEngine(): TabEngine {
  const engine = useContext(EngineContext);
  if (!engine) throw new Error('useEngine outside EngineProvider');
  return engine;
}
