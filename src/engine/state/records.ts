/**
 * Immutable updates of id-keyed records. Each returns the very same object when nothing changes, so a
 * slice of the state that an event did not touch keeps its identity and observers can skip re-rendering.
 */
type Rec<K extends PropertyKey, V> = Readonly<Record<K, V>>;

export function setEntry<K extends PropertyKey, V>(record: Rec<K, V>, key: K, value: V): Rec<K, V> {
  if (record[key] === value) return record;
  return { ...record, [key]: value } as Rec<K, V>;
}

/** Sets several entries at once; the same record when every value is already there. */
export function setEntries<K extends PropertyKey, V>(record: Rec<K, V>, entries: readonly (readonly [K, V])[]): Rec<K, V> {
  const changed = entries.filter(([key, value]) => record[key] !== value);
  if (changed.length === 0) return record;
  const next = { ...record } as Record<K, V>;
  for (const [key, value] of changed) next[key] = value;
  return next;
}

export function removeEntries<V>(record: Rec<number, V>, ids: Iterable<number>): Rec<number, V> {
  let next: Record<number, V> | null = null;
  for (const id of ids) {
    if (!(id in record)) continue;
    next ??= { ...record };
    delete next[id];
  }
  return next ?? record;
}

/**
 * The same array when `ids` (ascending) holds nothing new; otherwise the union, ascending. Appending
 * newer ids and prepending older ones, the common cases on a window of many thousand ids, skip the sort.
 */
export function mergeSortedIds(ids: readonly number[], more: readonly number[]): readonly number[] {
  const first = ids[0];
  const last = ids[ids.length - 1];
  const fresh = [...new Set(more)].sort((a, b) => a - b);
  const low = fresh[0];
  const high = fresh[fresh.length - 1];
  if (low === undefined || high === undefined) return ids;
  if (last === undefined || first === undefined) return fresh;
  if (low > last) return [...ids, ...fresh];
  if (high < first) return [...fresh, ...ids];
  const present = new Set(ids);
  const added = fresh.filter((id) => !present.has(id));
  if (added.length === 0) return ids;
  return [...ids, ...added].sort((a, b) => a - b);
}
