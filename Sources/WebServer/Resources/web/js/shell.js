// The page frame around the screens: the header's navigation, the toast line,
// the connection notice, the recording indicator and the language-model banner.

import { qs, qsa, el, on, setText } from './dom.js';

const NAV_FOR_ROUTE = { notes: 'nav-notes', note: 'nav-notes', search: null, ask: 'nav-ask', tasks: 'nav-tasks', models: 'nav-models', speakers: 'nav-speakers' };

export function createShell(root = document) {
  const main = qs('#main', root);
  const toastNode = qs('[data-testid="toast"]', root);
  const connection = qs('#connection', root);
  const recording = qs('#recording-indicator', root);
  const navLinks = qsa('.app-nav a[data-testid]', root);
  let toastTimer = null;

  // A file dropped outside the drop zone must not make the browser leave the app.
  on(window, 'dragover', (event) => event.preventDefault());
  on(window, 'drop', (event) => event.preventDefault());

  return {
    main,

    /** Marks the header link of the current screen. */
    setActive(routeName) {
      const active = NAV_FOR_ROUTE[routeName];
      for (const link of navLinks) {
        if (link.dataset.testid === active) link.setAttribute('aria-current', 'page');
        else link.removeAttribute('aria-current');
      }
    },

    setTitle(text) {
      document.title = text ? `${text} · VoiceNotes` : 'VoiceNotes';
    },

    /** One short message in the status line; errors stay a little longer. */
    toast(message, { tone = 'info', timeout } = {}) {
      clearTimeout(toastTimer);
      toastNode.dataset.tone = tone;
      setText(toastNode, message);
      toastNode.classList.add('visible');
      toastTimer = setTimeout(() => {
        toastNode.classList.remove('visible');
        toastTimer = setTimeout(() => setText(toastNode, ''), 300);
      }, timeout ?? (tone === 'error' ? 8000 : 4500));
    },

    setConnection(state) {
      const lost = state === 'reconnecting';
      connection.hidden = !lost;
      setText(connection, lost ? 'Lost the connection to the VoiceNotes server. Reconnecting…' : '');
    },

    setRecording(active) {
      recording.hidden = !active;
    },

    /** Clears the screen area and scrolls to the top, before the next screen mounts. */
    clearMain() {
      main.replaceChildren();
      window.scrollTo(0, 0);
    },

    renderNotFound(container) {
      container.append(
        el('section', { class: 'screen narrow' },
          el('h1', null, 'Nothing here'),
          el('p', null, 'This address isn’t part of VoiceNotes. ', el('a', { href: '#/' }, 'Go to your notes'), '.')),
      );
    },
  };
}

/**
 * The notice shown when the language model can't be used. `compact` for the notes list.
 * `problem` is {name, reason} from store.languageModelProblem.
 */
export function languageModelBanner(problem, { compact = false } = {}) {
  const reason = problem.reason ? ` ${problem.reason.replace(/\s*$/, '')}` : '';
  const ending = /[.!?]$/.test(reason) ? '' : '.';
  if (compact) {
    return el('div', { class: 'banner compact', 'data-testid': 'lm-banner', role: 'note' },
      el('strong', null, 'Analysis is paused.'),
      ` The language model isn’t available.${reason}${reason ? ending : ''} Notes are still saved and transcribed, and will be analysed once it is available. `,
      el('a', { href: '#/models' }, 'Models'));
  }
  return el('div', { class: 'banner', 'data-testid': 'lm-banner', role: 'note' },
    el('h2', null, 'The language model isn’t available'),
    el('p', null, `${problem.name} can’t be used right now.${reason}${reason ? ending : ''}`),
    el('p', null, 'Your notes are still saved and transcribed. Titles, summaries, tags, people and action items will be added once the language model is available.'));
}
