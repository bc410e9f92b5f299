import { useEffect, useState } from 'react';

/** "Now", refreshed each minute, so "Today" turns into "Yesterday" at midnight without a reload. */
export function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
