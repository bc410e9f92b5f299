import { useEffect, useState } from 'react';

/** A message id that is marked for `ms` (a highlight), then cleared; setting another restarts the time. */
export function useFlash(ms: number): [number | null, (id: number | null) => void] {
  const [id, setId] = useState<number | null>(null);
  useEffect(() => {
    if (id === null) return;
    const timer = setTimeout(() => setId(null), ms);
    return () => clearTimeout(timer);
  }, [id, ms]);
  return [id, setId];
}
