// Speech, language, speaker and search models (#/models): what is installed, installing in the background
// with progress from `model` events, and the notice when the language model is unavailable.

import { el, delegate, qs, qsa, replace, setText } from './dom.js';
import { formatPercent, formatSize } from './format.js';
import { languageModelProblem } from './store.js';
import { languageModelBanner } from './shell.js';

function capitalise(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** What a person reads for a model's status (with an install's stage and fraction). */
export function describeModel(entry) {
  const percent = typeof entry.fraction === 'number' ? ` ${formatPercent(entry.fraction)}` : '';
  switch (entry.status) {
    case 'installed': return 'Installed';
    case 'supported': return 'Not installed';
    case 'downloading': {
      const stage = entry.stage && !/download/i.test(entry.stage) ? capitalise(entry.stage) : 'Downloading';
      return `${stage}${percent || '…'}`;
    }
    default: return capitalise(String(entry.status || 'Unknown'));
  }
}

// View

/** Each kind of model as /api/models names it, in the order the screen lists them. */
const SECTIONS = [
  { kind: 'speech', heading: 'Speech recognition', none: 'No speech models are known.' },
  { kind: 'language', heading: 'Language model', none: 'No language models are known.' },
  { kind: 'speakers', heading: 'Telling speakers apart', none: 'No speaker models are known.' },
  { kind: 'embedding', heading: 'Search by meaning', none: 'No search models are known.' },
];

function createModelsView(container, handlers) {
  const bannerSlot = el('div', { class: 'banner-slot' });
  const status = el('p', { class: 'list-status', 'aria-live': 'polite' }, 'Loading models…');
  const kinds = SECTIONS.map((section) => ({ ...section, list: el('ul', { class: 'model-list', 'aria-labelledby': `${section.kind}-heading` }) }));
  container.append(el('section', { class: 'screen models-view', 'data-testid': 'models-view', 'aria-labelledby': 'models-heading' },
    el('div', { class: 'screen-head' }, el('h1', { id: 'models-heading' }, 'Models')),
    bannerSlot,
    el('p', { class: 'muted intro' }, 'Everything runs on this computer. A speech model turns recordings into text; a language model writes titles, summaries, tags, people and action items and answers questions; a speaker model tells who spoke when; a search model finds notes by meaning.'),
    status,
    ...kinds.flatMap(({ kind, heading, list }) => [
      el('h2', { id: `${kind}-heading`, class: 'section-heading' }, heading),
      list,
    ])));

  delegate(container, '[data-testid="model-install"]', 'click', (event, button) => {
    handlers.install(button.closest('[data-testid="model-row"]').dataset.name);
  });

  function row(name) {
    return qsa('[data-testid="model-row"]', container).find((n) => n.dataset.name === name);
  }

  function buildRow(entry) {
    const { model } = entry;
    const node = el('li', { class: 'card model-row', 'data-testid': 'model-row', 'data-name': model.name },
      el('div', { class: 'model-info' },
        el('h3', { class: 'model-name' }, model.name, entry.isDefault ? el('span', { class: 'badge default' }, 'Default') : null),
        model.summary ? el('p', { class: 'model-summary' }, model.summary) : null,
        formatSize(model.size) ? el('p', { class: 'muted model-size' }, formatSize(model.size)) : null),
      el('div', { class: 'model-side' },
        el('span', { class: 'model-status', 'data-testid': 'model-status' }),
        el('progress', { class: 'model-progress', max: '1', hidden: true, 'aria-label': `Installing ${model.name}` }),
        el('button', { type: 'button', class: 'btn', 'data-testid': 'model-install', 'aria-label': `Install ${model.name}` }, 'Install')));
    fill(node, entry);
    return node;
  }

  function fill(node, entry) {
    const statusNode = qs('[data-testid="model-status"]', node);
    statusNode.dataset.status = entry.status;
    setText(statusNode, describeModel(entry));
    const progress = qs('progress', node);
    const downloading = entry.status === 'downloading';
    progress.hidden = !downloading;
    if (downloading && typeof entry.fraction === 'number') progress.value = entry.fraction;
    else progress.removeAttribute('value'); // an indeterminate bar until the first fraction
    const install = qs('[data-testid="model-install"]', node);
    install.hidden = entry.status === 'installed';
    install.disabled = downloading || entry.requesting;
    setText(install, downloading || entry.requesting ? 'Installing…' : 'Install');
  }

  return {
    renderBanner(problem) {
      if (problem) replace(bannerSlot, languageModelBanner(problem));
      else bannerSlot.replaceChildren();
    },
    renderError(message) {
      setText(status, `Couldn’t load the models: ${message}`);
    },
    /** Lists `entriesByKind` (kind → entries) under each kind's heading. */
    renderModels(entriesByKind) {
      setText(status, '');
      status.hidden = true;
      for (const { kind, list, none } of kinds) {
        const entries = entriesByKind[kind] || [];
        replace(list, ...entries.map(buildRow));
        if (entries.length === 0) list.append(el('li', { class: 'muted' }, none));
      }
    },
    updateModel(entry) {
      const node = row(entry.model.name);
      if (node) fill(node, entry);
    },
  };
}

// Controller

export function createModelsScreen({ api, events, store, toast, refreshStatus }) {
  const entries = new Map(); // name → {model, kind, status, stage, fraction, isDefault, requesting}
  let view = null;
  let offs = [];

  async function load() {
    try {
      const answer = await api.listModels();
      if (!view) return;
      const defaults = answer.defaults || {};
      const make = (kind) => (answer[kind] || []).map((model) => {
        const known = entries.get(model.name);
        const entry = {
          model, kind, status: model.status,
          stage: known && model.status === 'downloading' ? known.stage : null,
          fraction: known && model.status === 'downloading' ? known.fraction : null,
          isDefault: defaults[kind] === model.name, requesting: false,
        };
        entries.set(model.name, entry);
        return entry;
      });
      view.renderModels(Object.fromEntries(SECTIONS.map(({ kind }) => [kind, make(kind)])));
    } catch (error) {
      if (view) view.renderError(error.message);
    }
  }

  async function install(name) {
    const entry = entries.get(name);
    if (!entry || entry.requesting || entry.status === 'downloading') return;
    entry.requesting = true;
    view.updateModel(entry);
    try {
      const answer = await api.installModel(name);
      entry.status = (answer && answer.status) || 'downloading';
      toast(`Installing ${name}…`);
    } catch (error) {
      toast(`${name} couldn’t be installed: ${error.message}`, { tone: 'error' });
    } finally {
      entry.requesting = false;
      if (view) view.updateModel(entry);
    }
  }

  function onModel(data) {
    if (!data || !data.name) return;
    const entry = entries.get(data.name);
    if (!entry) {
      if (view) load();
      return;
    }
    const before = entry.status;
    entry.status = data.status || entry.status;
    entry.stage = data.stage || null;
    entry.fraction = typeof data.fraction === 'number' ? data.fraction : entry.status === 'downloading' ? entry.fraction : null;
    if (entry.status !== 'downloading') entry.fraction = null;
    if (view) view.updateModel(entry);
    if (before !== 'installed' && entry.status === 'installed') {
      toast(`${data.name} is installed.`);
    } else if (before === 'downloading' && entry.status !== 'downloading') {
      toast(`${data.name} wasn’t installed${data.stage ? `: ${data.stage}` : '.'}`, { tone: 'error' });
    }
  }

  return {
    mount(container) {
      view = createModelsView(container, { install });
      view.renderBanner(languageModelProblem(store.get().status));
      offs = [
        store.watch('status', (status) => view && view.renderBanner(languageModelProblem(status))),
        events.on('model', onModel),
        events.on('resync', () => view && load()),
      ];
      refreshStatus();
      load();
    },
    unmount() {
      for (const off of offs) off();
      offs = [];
      view = null;
    },
  };
}
