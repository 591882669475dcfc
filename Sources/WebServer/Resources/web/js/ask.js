// Ask (#/ask): questions about the notes, answered by the language model on this computer.
// The answer streams in as it is written; each [n] in it links to the note it cites, opened at
// the moment cited, and the sources are listed under it. Follow-up questions continue the same
// conversation, shown as a thread; "New conversation" starts over. The thread outlives the
// screen, so following a citation and coming back keeps it.

import { el, on, replace, setText, toggleAttr } from './dom.js';
import { formatDate, formatDuration } from './format.js';
import { links } from './router.js';

const MAX_QUESTION = 500;
const CITATION = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;

/** The answer's text as nodes, each [n] (or [n, m]) a link to its cited note when the answer cites it. */
export function citedText(text, citations) {
  const byNumber = new Map((citations || []).map((c) => [c.number, c]));
  const nodes = [];
  let at = 0;
  for (const match of String(text || '').matchAll(CITATION)) {
    const numbers = match[1].split(',').map((n) => Number.parseInt(n.trim(), 10));
    if (!numbers.some((n) => byNumber.has(n))) continue;
    if (match.index > at) nodes.push(text.slice(at, match.index));
    numbers.forEach((n, i) => {
      const c = byNumber.get(n);
      if (i > 0) nodes.push(' ');
      nodes.push(c ? citationLink(c) : `[${n}]`);
    });
    at = match.index + match[0].length;
  }
  if (at < text.length) nodes.push(text.slice(at));
  return nodes;
}

function noteHref(citation) {
  return links.note(citation.noteID, typeof citation.time === 'number' ? citation.time : undefined);
}

function where(citation) {
  return typeof citation.time === 'number' ? ` at ${formatDuration(citation.time)}` : '';
}

function citationLink(citation) {
  const title = citation.title || 'Untitled note';
  return el('a', {
    href: noteHref(citation), class: 'citation', 'data-testid': 'citation-link',
    'data-note-id': citation.noteID, 'data-number': String(citation.number),
    title: `${title}${where(citation)}`, 'aria-label': `Source ${citation.number}: ${title}${where(citation)}`,
  }, `[${citation.number}]`);
}

// View

function createAskView(container, handlers) {
  const thread = el('ol', { class: 'ask-thread', 'data-testid': 'ask-thread', 'aria-label': 'Questions and answers' });
  const empty = el('div', { class: 'ask-empty muted', 'data-testid': 'ask-empty' },
    el('p', null, 'Ask about anything you have recorded: “What do I need from the shop?”, “What did we decide about the launch?”'),
    el('p', null, 'Answers come only from your notes, with links to the moments they come from.'));
  const input = el('textarea', {
    id: 'ask-input', class: 'ask-input', 'data-testid': 'ask-input', rows: '2', maxlength: String(MAX_QUESTION),
    placeholder: 'Ask a question about your notes', autocomplete: 'off', enterkeyhint: 'send',
    'aria-describedby': 'ask-hint',
  });
  const label = el('label', { for: 'ask-input', class: 'ask-label' }, 'Your question');
  const submit = el('button', { type: 'submit', class: 'btn primary', 'data-testid': 'ask-submit' }, 'Ask');
  const newButton = el('button', { type: 'button', class: 'btn quiet', 'data-testid': 'ask-new' }, 'New conversation');
  const formError = el('p', { class: 'inline-error', 'data-testid': 'ask-form-error', role: 'alert', hidden: true });
  const form = el('form', { class: 'ask-form card', 'data-testid': 'ask-form', novalidate: true },
    label,
    el('div', { class: 'ask-row' }, input, submit),
    el('p', { id: 'ask-hint', class: 'ask-hint muted' }, 'Enter asks; Shift+Enter starts a new line.'),
    formError);

  container.append(el('section', { class: 'screen ask-screen', 'data-testid': 'ask-view', 'aria-labelledby': 'ask-heading' },
    el('div', { class: 'screen-head' }, el('h1', { id: 'ask-heading' }, 'Ask your notes'), newButton),
    empty, thread, form));

  on(form, 'submit', (event) => {
    event.preventDefault();
    handlers.ask(input.value);
  });
  on(input, 'keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      handlers.ask(input.value);
    }
  });
  on(input, 'input', () => { formError.hidden = true; });
  on(newButton, 'click', () => handlers.reset());

  const turnNodes = new Map();

  function turnNode(turn) {
    let parts = turnNodes.get(turn);
    if (parts) return parts;
    const status = el('p', { class: 'ask-status', 'data-testid': 'ask-waiting' });
    const text = el('div', { class: 'ask-text', 'data-testid': 'ask-answer-text' });
    const sources = el('ol', { class: 'ask-sources', 'data-testid': 'ask-sources', 'aria-label': 'Sources' });
    const sourcesSection = el('section', { class: 'ask-sources-section', hidden: true },
      el('h2', null, 'Sources'), sources);
    const error = el('p', { class: 'inline-error', 'data-testid': 'ask-error', hidden: true });
    const answer = el('div', {
      class: 'ask-answer card', 'data-testid': 'ask-answer', 'aria-live': 'polite', 'aria-atomic': 'false',
    }, status, text, sourcesSection, error);
    const node = el('li', { class: 'ask-turn', 'data-testid': 'ask-turn' },
      el('p', { class: 'ask-question', 'data-testid': 'ask-question' },
        el('span', { class: 'visually-hidden' }, 'You asked: '), turn.question),
      answer);
    parts = { node, answer, status, text, sources, sourcesSection, error };
    turnNodes.set(turn, parts);
    return parts;
  }

  function renderTurn(turn) {
    const p = turnNode(turn);
    p.node.dataset.state = turn.state;
    toggleAttr(p.answer, 'aria-busy', turn.state === 'waiting' || turn.state === 'streaming');
    p.status.hidden = turn.state !== 'waiting';
    setText(p.status, turn.state === 'waiting' ? 'Looking through your notes…' : '');
    p.answer.classList.toggle('abstained', turn.state === 'done' && Boolean(turn.answer && turn.answer.abstained));
    if (turn.answer) {
      const cites = turn.answer.abstained ? [] : turn.answer.citations || [];
      replace(p.text, el('p', null, ...citedText(turn.answer.text || '', cites)));
      replace(p.sources, ...cites.map((c) => el('li', { class: 'ask-source', 'data-testid': 'ask-source', 'data-note-id': c.noteID },
        el('span', { class: 'ask-source-number' }, `[${c.number}]`),
        el('div', { class: 'ask-source-body' },
          el('a', { href: noteHref(c), class: 'ask-source-title', 'data-testid': 'ask-source-link', 'data-note-id': c.noteID },
            c.title || 'Untitled note'),
          el('span', { class: 'ask-source-meta muted' },
            typeof c.time === 'number' ? el('span', { class: 'ask-source-time', 'data-testid': 'ask-source-time' }, formatDuration(c.time)) : null,
            typeof c.time === 'number' && c.recordedAt ? ' · ' : null,
            c.recordedAt ? formatDate(c.recordedAt) : null),
          c.text ? el('blockquote', { class: 'ask-excerpt' }, c.text) : null))));
      p.sourcesSection.hidden = cites.length === 0;
    } else {
      // While it streams: the text so far, plain (its citations are known once it is finished).
      if (p.text.textContent !== turn.text) replace(p.text, el('p', null, turn.text));
      p.sourcesSection.hidden = true;
    }
    p.text.hidden = !turn.answer && !turn.text;
    p.error.hidden = !turn.error;
    setText(p.error, turn.error ? `No answer: ${turn.error}` : '');
    return p.node;
  }

  return {
    render(turns, busy) {
      replace(thread, ...turns.map(renderTurn));
      for (const turn of [...turnNodes.keys()]) if (!turns.includes(turn)) turnNodes.delete(turn);
      this.renderBusy(busy, turns.length > 0);
    },
    renderTurn(turn) {
      renderTurn(turn);
    },
    renderBusy(busy, hasTurns) {
      submit.disabled = busy;
      setText(submit, busy ? 'Answering…' : 'Ask');
      empty.hidden = hasTurns;
      thread.hidden = !hasTurns;
      setText(label, hasTurns ? 'Ask a follow-up question' : 'Your question');
      input.placeholder = hasTurns ? 'Ask a follow-up, or start a new conversation' : 'Ask a question about your notes';
      newButton.disabled = !hasTurns;
    },
    showFormError(message) {
      formError.hidden = !message;
      setText(formError, message || '');
    },
    clearInput() {
      input.value = '';
    },
    focusInput() {
      input.focus();
    },
    scrollToEnd() {
      form.scrollIntoView({ block: 'nearest' });
    },
  };
}

// Controller

export function createAskScreen({ api }) {
  let view = null;
  // The conversation, kept while the page is open: its identifier and its turns.
  let conversation = null;
  let turns = [];
  let controller = null;
  let generation = 0;

  const busy = () => controller !== null;
  const render = () => { if (view) view.render(turns, busy()); };
  const renderTurn = (turn) => { if (view) view.renderTurn(turn); };

  async function ask(value) {
    const question = String(value || '').trim();
    if (busy()) return;
    if (!question) {
      if (view) view.showFormError('Type a question first.');
      return;
    }
    if (question.length > MAX_QUESTION) {
      if (view) view.showFormError(`A question can be at most ${MAX_QUESTION} characters.`);
      return;
    }
    if (view) {
      view.showFormError('');
      view.clearInput();
    }
    const turn = { question, text: '', answer: null, error: null, state: 'waiting' };
    turns.push(turn);
    const abort = new AbortController();
    controller = abort;
    const mine = generation;
    render();
    if (view) view.scrollToEnd();
    const current = () => mine === generation;
    try {
      await api.ask(question, {
        conversation,
        signal: abort.signal,
        on: {
          conversation: (data) => { if (current() && data.id) conversation = data.id; },
          text: (data) => {
            if (!current()) return;
            turn.text += data.text || '';
            turn.state = 'streaming';
            renderTurn(turn);
          },
          answer: (data) => {
            if (!current()) return;
            turn.answer = data;
            turn.state = 'done';
            renderTurn(turn);
          },
          error: (data) => {
            if (!current()) return;
            turn.error = data.error || 'The answer failed.';
            turn.state = 'error';
            renderTurn(turn);
          },
        },
      });
    } catch (error) {
      if (error.name === 'AbortError' || !current()) return;
      turn.error = error.message;
      turn.state = 'error';
    } finally {
      if (controller === abort) controller = null;
      if (current()) {
        render();
        if (view) view.focusInput();
      }
    }
  }

  function reset() {
    generation += 1;
    if (controller) controller.abort();
    controller = null;
    conversation = null;
    turns = [];
    render();
    if (view) {
      view.showFormError('');
      view.focusInput();
    }
  }

  return {
    mount(container) {
      view = createAskView(container, { ask, reset });
      render();
      view.focusInput();
    },
    unmount() {
      view = null;
    },
  };
}

