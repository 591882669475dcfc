// A small state store for what several parts of the page share:
// the server's status, the event stream's connection and whether a recording runs.

/**
 * createStore({a: 1}) → {get, set, subscribe, watch}.
 * `set(patch)` merges and tells subscribers; `watch(key, fn)` calls fn only when that key changes.
 */
export function createStore(initial = {}) {
  let state = { ...initial };
  const subscribers = new Set();

  return {
    get() {
      return state;
    },
    set(patch) {
      const previous = state;
      state = { ...state, ...patch };
      for (const fn of [...subscribers]) fn(state, previous);
    },
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
    watch(key, fn) {
      const listener = (next, previous) => {
        if (next[key] !== previous[key]) fn(next[key], previous[key]);
      };
      subscribers.add(listener);
      return () => subscribers.delete(listener);
    },
  };
}

/** The app's shared state, with its starting values. */
export function createAppStore() {
  return createStore({
    status: null, // GET /api/status
    connection: 'connecting', // the event stream: connecting, open, reconnecting
    recording: false, // a recording is running in this tab
  });
}

/** The language model's trouble, or null when it is available (or not yet known). */
export function languageModelProblem(status) {
  const model = status && status.languageModel;
  if (!model || model.available !== false) return null;
  return { name: model.name || 'The language model', reason: (model.reason || '').trim() };
}
