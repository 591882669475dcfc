// Hash routes: #/, #/notes/ID?t=SECONDS, #/search?q=…&scope=…&mode=…, #/ask, #/tasks, #/models, #/speakers.
// Knows only location.hash, never the page's elements.

/** Parses a hash into {name, params, query}. Unknown paths are {name: 'notFound'}. */
export function parseHash(hash) {
  let text = String(hash || '').replace(/^#/, '');
  if (!text.startsWith('/')) text = `/${text}`;
  const mark = text.indexOf('?');
  const path = mark === -1 ? text : text.slice(0, mark);
  const query = Object.fromEntries(new URLSearchParams(mark === -1 ? '' : text.slice(mark + 1)));
  const parts = path.split('/').filter(Boolean).map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  });

  if (parts.length === 0) return { name: 'notes', params: {}, query };
  if (parts[0] === 'notes' && parts.length === 1) return { name: 'notes', params: {}, query };
  if (parts[0] === 'notes' && parts.length === 2) return { name: 'note', params: { id: parts[1] }, query };
  if (parts.length === 1 && ['search', 'ask', 'tasks', 'models', 'speakers'].includes(parts[0])) {
    return { name: parts[0], params: {}, query };
  }
  return { name: 'notFound', params: {}, query };
}

function withQuery(path, query = {}) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** Hash links, so screens never spell routes by hand. */
export const links = {
  notes: () => '#/',
  note: (id, seconds) =>
    withQuery(`#/notes/${encodeURIComponent(id)}`, {
      t: typeof seconds === 'number' && Number.isFinite(seconds) ? Math.max(0, Math.round(seconds * 100) / 100) : undefined,
    }),
  search: (q, scope, mode) => withQuery('#/search', {
    q, scope: scope && scope !== 'all' ? scope : undefined, mode: mode || undefined,
  }),
  ask: () => '#/ask',
  tasks: () => '#/tasks',
  models: () => '#/models',
  speakers: () => '#/speakers',
};

/** Calls `onRoute(route)` now and on every hash change. */
export function createRouter(onRoute) {
  const handle = () => onRoute(parseHash(window.location.hash));
  return {
    start() {
      window.addEventListener('hashchange', handle);
      handle();
    },
    current() {
      return parseHash(window.location.hash);
    },
    /** Goes to `hash`; `replace` rewrites the current history entry instead of adding one. */
    navigate(hash, { replace = false } = {}) {
      if (window.location.hash === hash) return;
      if (replace) window.location.replace(hash);
      else window.location.hash = hash;
    },
  };
}
