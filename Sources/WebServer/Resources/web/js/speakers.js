// The named speakers (#/speakers): the voices the library remembers, in how many notes each
// speaks, and renaming, merging and forgetting them. Speakers are named on a note's transcript.

import { el, delegate, qs, replace, setText } from './dom.js';

// View

function createSpeakersView(container, handlers) {
  const status = el('p', { class: 'list-status', 'aria-live': 'polite' });
  const list = el('ul', { class: 'speaker-list', 'data-testid': 'speaker-list', 'aria-label': 'Named speakers' });
  container.append(el('section', { class: 'screen speakers-view', 'data-testid': 'speakers-view', 'aria-labelledby': 'speakers-heading' },
    el('div', { class: 'screen-head' }, el('h1', { id: 'speakers-heading' }, 'Speakers')),
    el('p', { class: 'muted' }, 'Name a speaker by clicking “Speaker 1” on a note’s transcript. Named voices are recognised in later notes.'),
    status,
    list));

  const row = (node) => node.closest('[data-testid="speaker-item"]');
  delegate(list, '[data-action]', 'click', (event, button) => {
    const item = row(button);
    const id = item.dataset.id;
    switch (button.dataset.action) {
      case 'rename': handlers.rename(id, qs('[data-testid="speaker-rename-input"]', item).value.trim()); break;
      case 'merge': handlers.merge(id, qs('[data-testid="speaker-merge-select"]', item).value); break;
      case 'forget':
        if (item.dataset.confirming === 'true') {
          handlers.forget(id);
        } else {
          item.dataset.confirming = 'true';
          setText(button, 'Really forget?');
        }
        break;
      default: break;
    }
  });

  return {
    renderSpeakers(voices) {
      setText(status, voices.length ? '' : 'No speaker has a name yet.');
      replace(list, ...voices.map((voice) => el('li', { class: 'speaker-item card', 'data-testid': 'speaker-item', 'data-id': voice.id },
        el('p', { class: 'speaker-head' },
          el('strong', { 'data-testid': 'speaker-name' }, voice.name), ' ',
          el('span', { class: 'muted' }, `${voice.notes} note${voice.notes === 1 ? '' : 's'}`)),
        el('div', { class: 'speaker-actions' },
          el('input', {
            type: 'text', maxlength: '80', value: voice.name, 'data-testid': 'speaker-rename-input',
            'aria-label': `New name for ${voice.name}`,
          }),
          el('button', { type: 'button', class: 'btn', 'data-action': 'rename', 'data-testid': 'speaker-rename' }, 'Rename'),
          voices.length > 1
            ? el('select', { 'data-testid': 'speaker-merge-select', 'aria-label': `Merge ${voice.name} into` },
              ...voices.filter((other) => other.id !== voice.id).map((other) => el('option', { value: other.id }, other.name)))
            : null,
          voices.length > 1
            ? el('button', { type: 'button', class: 'btn', 'data-action': 'merge', 'data-testid': 'speaker-merge' }, 'Merge into')
            : null,
          el('button', { type: 'button', class: 'btn danger-quiet', 'data-action': 'forget', 'data-testid': 'speaker-forget' }, 'Forget')))));
    },
    renderError(message) {
      setText(status, `The speakers couldn’t be loaded: ${message}`);
    },
  };
}

// Controller

export function createSpeakersScreen({ api, events, toast }) {
  let view = null;
  let offs = [];

  async function load() {
    try {
      const answer = await api.listSpeakers();
      if (view) view.renderSpeakers(answer.speakers || []);
    } catch (error) {
      if (view) view.renderError(error.message);
    }
  }

  async function act(work, done) {
    try {
      await work();
      toast(done);
    } catch (error) {
      toast(error.message, { tone: 'error' });
    }
    load();
  }

  const handlers = {
    rename: (id, name) => act(() => api.renameSpeaker(id, name), `Renamed to ${name}.`),
    merge: (id, into) => act(() => api.mergeSpeaker(id, into), 'Merged.'),
    forget: (id) => act(() => api.forgetSpeaker(id), 'Forgotten; its notes read “Speaker N” again.'),
  };

  return {
    mount(container) {
      view = createSpeakersView(container, handlers);
      offs = [events.on('library', () => view && load()), events.on('resync', () => view && load())];
      load();
    },
    unmount() {
      for (const off of offs) off();
      offs = [];
      view = null;
    },
  };
}
