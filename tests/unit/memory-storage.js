// An in-memory stand-in for localStorage, for the unit tests of what the
// page keeps there. `map` shows what is stored.

/** A Storage-like object over a Map, filled from `initial`. */
export function memoryStorage(initial = {}) {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => map.set(k, String(v)),
    removeItem: (k) => map.delete(k),
  };
}
