// Search: the field and scope picker in the header, and the results screen
// (#/search?q=…&scope=…). Searches as you type; stale requests are cancelled and
// answers that arrive out of order are ignored.

import { el, on, qs, replace, setText, toggleAttr } from './dom.js';
import { formatDate, formatDuration, displayTitle } from './format.js';
import { links } from './router.js';

export const SCOPES = ['all', 'title', 'transcript', 'summary', 'tags', 'people', 'action-items'];
const DEBOUNCE_MS = 120;
const FIELD_NAMES = {
  all: 'Everything', title: 'Title', transcript: 'Transcript', summary: 'Summary',
  tags: 'Tags', people: 'People', 'action-items': 'Action items',
};

const normalScope = (scope) => (SCOPES.includes(scope) ? scope : 'all');

// Views

function createHeaderSearchView(root, handlers) {
  const input = qs('[data-testid="search-input"]', root);
  const scope = qs('[data-testid="search-scope"]', root);
  const form = input.form;

  on(input, 'input', () => handlers.typed(input.value, scope.value));
  on(scope, 'change', () => handlers.scoped(input.value, scope.value));
  if (form) on(form, 'submit', (event) => {
    event.preventDefault();
    handlers.submit(input.value, scope.value);
  });
  on(input, 'keydown', (event) => {
    if (event.key === 'Escape' && input.value) {
      event.preventDefault();
      input.value = '';
      handlers.typed('', scope.value);
    }
  });

  return {
    clearQuery() {
      if (document.activeElement !== input) input.value = '';
    },
    setValues(q, scopeName) {
      if (document.activeElement !== input && input.value !== q) input.value = q;
      if (scope.value !== scopeName) scope.value = scopeName;
    },
  };
}

function createResultsView(container) {
  const summary = el('p', { class: 'search-summary', 'aria-live': 'polite' });
  const results = el('ol', { class: 'search-results', 'data-testid': 'search-results', 'aria-label': 'Search results' });
  container.append(el('section', { class: 'screen search-screen', 'aria-labelledby': 'search-heading' },
    el('h1', { id: 'search-heading' }, 'Search'), summary, results));

  function snippet(runs) {
    return el('p', { class: 'snippet' }, ...(runs || []).map((run) =>
      (run.match ? el('mark', null, run.text) : run.text)));
  }

  function where(result) {
    const field = FIELD_NAMES[result.field] || result.field || '';
    return typeof result.segmentStart === 'number' ? `${field} at ${formatDuration(result.segmentStart)}` : field;
  }

  return {
    renderHint() {
      setText(summary, 'Type in the search field to look through titles, transcripts, summaries, tags, people and action items.');
      results.replaceChildren();
      toggleAttr(results, 'aria-busy', false);
    },
    renderBusy(busy) {
      toggleAttr(results, 'aria-busy', busy);
      results.classList.toggle('busy', busy);
    },
    renderError(message) {
      setText(summary, `The search didn’t work: ${message}`);
      results.replaceChildren();
    },
    renderResults(list, q, scope) {
      const n = list.length;
      const inScope = scope === 'all' ? '' : ` in ${FIELD_NAMES[scope].toLowerCase()}`;
      setText(summary, n === 0 ? `Nothing matches “${q}”${inScope}.` : `${n} ${n === 1 ? 'result' : 'results'} for “${q}”${inScope}`);
      replace(results, ...list.map((result) => {
        const note = result.note || {};
        const start = typeof result.segmentStart === 'number' ? result.segmentStart : undefined;
        return el('li', { class: 'search-result', 'data-testid': 'search-result', 'data-id': note.id },
          el('a', { href: links.note(note.id, start), class: 'result-link' },
            el('span', { class: 'result-title' }, displayTitle(note)),
            el('span', { class: 'result-meta' }, where(result), ' · ', formatDate(note.createdAt)),
            snippet(result.snippet)));
      }));
    },
  };
}

// Controller

export function createSearch({ api, router, navigate }) {
  let header = null;
  let view = null;
  let timer = null;
  let sequence = 0;
  let controller = null;
  let last = null;

  function go(q, scope, immediate) {
    clearTimeout(timer);
    const onSearch = router.current().name === 'search';
    if (!q.trim() && !onSearch) return;
    const apply = () => navigate(links.search(q, scope), { replace: onSearch });
    if (immediate) apply();
    else timer = setTimeout(apply, DEBOUNCE_MS);
  }

  async function run(q, scope) {
    const key = `${scope}\u0000${q}`;
    if (key === last) return;
    last = key;
    if (controller) controller.abort();
    controller = null;
    const mine = ++sequence;
    if (!q.trim()) {
      view.renderBusy(false);
      view.renderHint();
      return;
    }
    const abort = new AbortController();
    controller = abort;
    view.renderBusy(true);
    try {
      const answer = await api.search(q, scope, { signal: abort.signal });
      if (mine !== sequence || !view) return;
      view.renderResults(answer.results || [], q, scope);
    } catch (error) {
      if (error.name === 'AbortError' || mine !== sequence || !view) return;
      view.renderError(error.message);
      last = null;
    } finally {
      if (mine === sequence && view) view.renderBusy(false);
    }
  }

  function fromRoute(route) {
    return { q: route.query.q || '', scope: normalScope(route.query.scope) };
  }

  return {
    /** Binds the header's field and scope picker (they live outside the screens). */
    bindHeader(root) {
      header = createHeaderSearchView(root, {
        typed: (q, scope) => go(q, scope, false),
        scoped: (q, scope) => go(q, scope, true),
        submit: (q, scope) => go(q, scope, true),
      });
    },

    /** Keeps the header in step with the address (back and forward, a shared link). */
    syncHeader(route) {
      if (!header) return;
      if (route.name === 'search') {
        const { q, scope } = fromRoute(route);
        header.setValues(q, scope);
      } else {
        header.clearQuery();
      }
    },

    screen: {
      mount(container, route) {
        view = createResultsView(container);
        last = null;
        const { q, scope } = fromRoute(route);
        run(q, scope);
      },
      update(route) {
        const { q, scope } = fromRoute(route);
        run(q, scope);
      },
      unmount() {
        clearTimeout(timer);
        if (controller) controller.abort();
        controller = null;
        sequence += 1;
        view = null;
      },
    },
  };
}
