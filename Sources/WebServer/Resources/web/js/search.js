// Search: the field and scope picker in the header, and the results screen
// (#/search?q=…&scope=…&mode=…) with its mode control (hybrid, keyword or meaning; without
// `mode` the server picks, and the screen shows what it used). Searches as you type; stale
// requests are cancelled and answers that arrive out of order are ignored.

import { el, on, qs, replace, setText, toggleAttr } from './dom.js';
import { formatDate, formatDuration, displayTitle } from './format.js';
import { links } from './router.js';

export const SCOPES = ['all', 'title', 'transcript', 'summary', 'tags', 'people', 'action-items'];
const DEBOUNCE_MS = 120;
const FIELD_NAMES = {
  all: 'Everything', title: 'Title', transcript: 'Transcript', summary: 'Summary',
  tags: 'Tags', people: 'People', 'action-items': 'Action items',
};

export const MODES = [
  { value: 'hybrid', label: 'Hybrid', used: 'words and meaning' },
  { value: 'keyword', label: 'Keyword', used: 'keywords' },
  { value: 'semantic', label: 'Meaning', used: 'meaning' },
];

const normalScope = (scope) => (SCOPES.includes(scope) ? scope : 'all');
const normalMode = (mode) => (MODES.some((m) => m.value === mode) ? mode : '');

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

function createResultsView(container, handlers) {
  const summary = el('p', { class: 'search-summary', 'data-testid': 'search-summary', 'aria-live': 'polite' });
  const results = el('ol', { class: 'search-results', 'data-testid': 'search-results', 'aria-label': 'Search results' });
  const radios = MODES.map((mode) => el('input', {
    type: 'radio', name: 'search-mode', id: `search-mode-${mode.value}`, value: mode.value,
    'data-testid': 'search-mode', 'data-mode': mode.value,
  }));
  const modeControl = el('fieldset', { class: 'segmented', 'data-testid': 'search-modes' },
    el('legend', { class: 'visually-hidden' }, 'Search by'),
    ...MODES.map((mode, i) => [radios[i], el('label', { for: `search-mode-${mode.value}` }, mode.label)]));
  const used = el('span', { class: 'search-mode-used muted', 'data-testid': 'search-mode-used' });
  const fallback = el('button', { type: 'button', class: 'btn small', 'data-testid': 'search-keyword-instead', hidden: true },
    'Search by keyword instead');
  container.append(el('section', { class: 'screen search-screen', 'aria-labelledby': 'search-heading' },
    el('div', { class: 'screen-head' }, el('h1', { id: 'search-heading' }, 'Search'),
      el('div', { class: 'search-mode-bar' }, modeControl, used)),
    summary, fallback, results));
  for (const radio of radios) on(radio, 'change', () => { if (radio.checked) handlers.mode(radio.value); });
  on(fallback, 'click', () => handlers.mode('keyword'));

  function showMode(chosen, actual) {
    const shown = chosen || actual || '';
    for (const radio of radios) radio.checked = radio.value === shown;
    const mode = MODES.find((m) => m.value === actual);
    used.dataset.mode = actual || '';
    setText(used, mode ? `Searched by ${mode.used}` : '');
  }

  function snippet(runs) {
    return el('p', { class: 'snippet' }, ...(runs || []).map((run) =>
      (run.match ? el('mark', null, run.text) : run.text)));
  }

  function where(result) {
    const field = FIELD_NAMES[result.field] || result.field || '';
    return typeof result.segmentStart === 'number' ? `${field} at ${formatDuration(result.segmentStart)}` : field;
  }

  return {
    renderHint(mode) {
      showMode(mode, '');
      fallback.hidden = true;
      summary.classList.remove('inline-error');
      setText(summary, 'Type in the search field to look through titles, transcripts, summaries, tags, people and action items.');
      results.replaceChildren();
      toggleAttr(results, 'aria-busy', false);
    },
    renderMode(mode) {
      showMode(mode, '');
    },
    renderBusy(busy) {
      toggleAttr(results, 'aria-busy', busy);
      results.classList.toggle('busy', busy);
    },
    renderError(message, status, mode) {
      showMode(mode, '');
      summary.classList.add('inline-error');
      // 409: searching by meaning needs the embedding model; the server says what to do.
      setText(summary, status === 409 ? message : `The search didn’t work: ${message}`);
      fallback.hidden = !(status === 409 && mode !== 'keyword');
      results.replaceChildren();
    },
    renderResults(list, q, scope, mode, usedMode) {
      showMode(mode, usedMode);
      fallback.hidden = true;
      summary.classList.remove('inline-error');
      const n = list.length;
      const inScope = scope === 'all' ? '' : ` in ${FIELD_NAMES[scope].toLowerCase()}`;
      setText(summary, n === 0 ? `Nothing matches “${q}”${inScope}.` : `${n} ${n === 1 ? 'result' : 'results'} for “${q}”${inScope}`);
      replace(results, ...list.map((result) => {
        const note = result.note || {};
        const start = typeof result.segmentStart === 'number' ? result.segmentStart : undefined;
        return el('li', {
          class: 'search-result', 'data-testid': 'search-result', 'data-id': note.id,
          'data-segment-start': start === undefined ? null : String(start),
        },
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
    const route = router.current();
    const onSearch = route.name === 'search';
    if (!q.trim() && !onSearch) return;
    const mode = onSearch ? normalMode(route.query.mode) : '';
    const apply = () => navigate(links.search(q, scope, mode), { replace: onSearch });
    if (immediate) apply();
    else timer = setTimeout(apply, DEBOUNCE_MS);
  }

  async function run(q, scope, mode) {
    const key = `${scope}\u0000${mode}\u0000${q}`;
    if (key === last) return;
    last = key;
    if (controller) controller.abort();
    controller = null;
    const mine = ++sequence;
    if (!q.trim()) {
      view.renderBusy(false);
      view.renderHint(mode);
      return;
    }
    const abort = new AbortController();
    controller = abort;
    view.renderBusy(true);
    view.renderMode(mode);
    try {
      const answer = await api.search(q, scope, { signal: abort.signal, mode: mode || undefined });
      if (mine !== sequence || !view) return;
      view.renderResults(answer.results || [], q, scope, mode, answer.mode);
    } catch (error) {
      if (error.name === 'AbortError' || mine !== sequence || !view) return;
      view.renderError(error.message, error.status, mode);
      last = null;
    } finally {
      if (mine === sequence && view) view.renderBusy(false);
    }
  }

  function fromRoute(route) {
    return { q: route.query.q || '', scope: normalScope(route.query.scope), mode: normalMode(route.query.mode) };
  }

  const viewHandlers = {
    mode(mode) {
      const { q, scope } = fromRoute(router.current());
      navigate(links.search(q, scope, mode), { replace: true });
    },
  };

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
        view = createResultsView(container, viewHandlers);
        last = null;
        const { q, scope, mode } = fromRoute(route);
        run(q, scope, mode);
      },
      update(route) {
        const { q, scope, mode } = fromRoute(route);
        run(q, scope, mode);
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
