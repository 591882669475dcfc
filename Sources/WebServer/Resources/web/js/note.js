// One note (#/notes/ID, optionally ?t=SECONDS): player, transcript that follows the audio,
// editable title, summary, tags, people, action items, related notes, retry, delete and exports.

import { el, on, delegate, qs, qsa, replace, setText, prefersReducedMotion } from './dom.js';
import { formatDate, formatFullDate, formatDuration, describeState, displayTitle } from './format.js';
import { links } from './router.js';

const EXPORTS = [
  { format: 'md', label: 'Markdown' },
  { format: 'json', label: 'JSON' },
  { format: 'txt', label: 'Text' },
  { format: 'srt', label: 'SRT' },
  { format: 'vtt', label: 'WebVTT' },
];
const WORKING = new Set(['recording', 'saved', 'transcribing', 'speakers', 'analysing', 'indexing']);

/** The index of the segment playing at `time` (segments sorted by start), or -1. */
export function segmentAt(segments, time) {
  let low = 0;
  let high = segments.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (segments[mid].start <= time + 0.001) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  if (found === -1) return -1;
  const segment = segments[found];
  const isLast = found === segments.length - 1;
  // Between two segments the earlier one stays lit; after the last one's end nothing is.
  return time < segment.end || !isLast ? found : -1;
}

// View

function createNoteView(container, handlers) {
  const titleInput = el('input', {
    type: 'text', id: 'note-title-input', class: 'title-input', 'data-testid': 'note-title-input',
    maxlength: '200', autocomplete: 'off', spellcheck: 'true',
  });
  const date = el('time', { class: 'note-date' });
  const length = el('span', { class: 'note-length' });
  const fileName = el('span', { class: 'note-file' });
  const badge = el('span', { class: 'badge', 'data-testid': 'note-state' });
  const progress = el('progress', { class: 'state-progress', max: '1', hidden: true, 'aria-label': 'Processing progress' });
  const failure = el('div', { class: 'note-failure panel-error', hidden: true },
    el('p', { class: 'note-error' }),
    el('button', { type: 'button', class: 'btn', 'data-testid': 'note-retry' }, 'Retry'));
  const audio = el('audio', { controls: true, preload: 'metadata', class: 'note-audio', 'data-testid': 'note-audio', 'aria-label': 'The recording' });
  const summary = el('p', { class: 'note-summary', 'data-testid': 'note-summary' });
  const tags = el('ul', { class: 'chips', 'data-testid': 'note-tags', 'aria-label': 'Tags' });
  const tagsEmpty = el('p', { class: 'muted' });
  const people = el('ul', { class: 'chips', 'data-testid': 'note-people', 'aria-label': 'People' });
  const peopleEmpty = el('p', { class: 'muted' });
  const tasks = el('ul', { class: 'task-list', 'data-testid': 'note-tasks', 'aria-label': 'Action items' });
  const tasksEmpty = el('p', { class: 'muted' });
  const transcript = el('div', { class: 'transcript', 'data-testid': 'transcript' });
  const exportLinks = el('ul', { class: 'export-links' });
  const relatedList = el('ul', { class: 'related-list', 'data-testid': 'related-list', 'aria-labelledby': 'related-heading' });
  const related = el('section', { class: 'related-section', 'data-testid': 'related-notes', 'aria-labelledby': 'related-heading', hidden: true },
    el('h2', { id: 'related-heading' }, 'Related notes'), relatedList);
  const deleteButton = el('button', { type: 'button', class: 'btn danger-quiet', 'data-testid': 'note-delete' }, 'Delete note…');

  const confirmText = el('p');
  const confirmNo = el('button', { type: 'submit', class: 'btn', value: 'cancel', 'data-testid': 'confirm-no', autofocus: true }, 'Cancel');
  const confirmYes = el('button', { type: 'submit', class: 'btn danger', value: 'delete', 'data-testid': 'confirm-yes' }, 'Delete');
  const dialog = el('dialog', { class: 'dialog', 'data-testid': 'confirm-dialog', 'aria-labelledby': 'confirm-heading' },
    el('form', { method: 'dialog' },
      el('h2', { id: 'confirm-heading' }, 'Delete this note?'),
      confirmText,
      el('div', { class: 'dialog-actions' }, confirmNo, confirmYes)));

  const page = el('article', { class: 'screen note-page', 'data-testid': 'note-page', 'aria-busy': 'true' },
    el('a', { class: 'back-link', href: links.notes() }, '← All notes'),
    el('header', { class: 'note-head' },
      el('label', { class: 'visually-hidden', for: 'note-title-input' }, 'Title'),
      titleInput,
      el('p', { class: 'note-meta' }, date, length, fileName, badge, progress),
      failure),
    audio,
    el('div', { class: 'note-grid' },
      el('section', { class: 'card note-summary-card', 'aria-labelledby': 'summary-heading' },
        el('h2', { id: 'summary-heading' }, 'Summary'), summary),
      el('section', { class: 'card note-tasks-card', 'aria-labelledby': 'tasks-heading' },
        el('h2', { id: 'tasks-heading' }, 'Action items'), tasks, tasksEmpty),
      el('section', { class: 'card', 'aria-labelledby': 'tags-heading' },
        el('h2', { id: 'tags-heading' }, 'Tags'), tags, tagsEmpty),
      el('section', { class: 'card', 'aria-labelledby': 'people-heading' },
        el('h2', { id: 'people-heading' }, 'People'), people, peopleEmpty)),
    el('section', { class: 'transcript-section', 'aria-labelledby': 'transcript-heading' },
      el('h2', { id: 'transcript-heading' }, 'Transcript'), transcript),
    related,
    el('footer', { class: 'note-actions' },
      el('div', { class: 'exports' }, el('span', { class: 'muted', id: 'export-label' }, 'Export'), exportLinks),
      deleteButton),
    dialog);
  container.append(page);

  let segmentNodes = [];
  let playing = -1;
  let editing = false;
  let reverting = false;
  let pendingSeek = null;
  let lastManualScroll = 0;

  // Title: Enter or leaving the field saves, Escape puts the old title back.
  on(titleInput, 'focus', () => { editing = true; });
  on(titleInput, 'keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      titleInput.blur();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      reverting = true;
      titleInput.blur();
    }
  });
  on(titleInput, 'blur', () => {
    editing = false;
    if (reverting) {
      reverting = false;
      handlers.revertTitle();
    } else {
      handlers.rename(titleInput.value);
    }
  });

  on(qs('[data-testid="note-retry"]', failure), 'click', () => handlers.retry());
  on(deleteButton, 'click', () => handlers.delete());
  delegate(tasks, '[data-testid="task-checkbox"]', 'change', (event, box) => handlers.toggleTask(box.dataset.id, box.checked));
  delegate(transcript, '[data-testid="segment"]', 'click', (event, segment) => {
    if (event.target.closest('.segment-speaker, .speaker-form')) return;
    handlers.seek(Number(segment.dataset.start), true);
  });
  // A speaker's label is a button: clicking it asks who that is, in place.
  delegate(transcript, '[data-testid="segment-speaker"]', 'click', (event, button) => {
    const number = Number(button.dataset.number);
    const input = el('input', {
      type: 'text', class: 'speaker-name-input', 'data-testid': 'speaker-name-input', maxlength: '80',
      value: button.dataset.named === 'true' ? button.textContent : '', placeholder: 'Who is this?',
      'aria-label': `Name ${button.textContent}`,
    });
    const form = el('form', { class: 'speaker-form' }, input);
    on(form, 'submit', (submit) => {
      submit.preventDefault();
      handlers.nameSpeaker(number, input.value.trim());
    });
    on(input, 'keydown', (key) => {
      if (key.key === 'Escape') {
        key.preventDefault();
        form.replaceWith(button);
      }
    });
    button.replaceWith(form);
    input.focus();
  });

  on(audio, 'timeupdate', () => handlers.timeUpdate(audio.currentTime));
  on(audio, 'seeked', () => handlers.timeUpdate(audio.currentTime));
  on(audio, 'loadedmetadata', () => {
    if (pendingSeek !== null) {
      audio.currentTime = Math.min(pendingSeek, Number.isFinite(audio.duration) ? audio.duration : pendingSeek);
      pendingSeek = null;
    }
  });

  // A person scrolling by hand wins over following the audio for a few seconds.
  const manual = () => { lastManualScroll = Date.now(); };
  const offs = [on(window, 'wheel', manual, { passive: true }), on(window, 'touchmove', manual, { passive: true })];

  // The dialog keeps Tab inside itself (showModal already makes the page behind it inert).
  on(dialog, 'keydown', (event) => {
    if (event.key !== 'Tab') return;
    const focusable = qsa('button, [href], input, select, textarea', dialog).filter((n) => !n.disabled);
    if (focusable.length === 0) return;
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });

  function chips(list, emptyNode, values, emptyText) {
    replace(list, ...values.map((value) => el('li', { class: 'chip' }, value)));
    list.hidden = values.length === 0;
    emptyNode.hidden = values.length > 0;
    setText(emptyNode, emptyText);
  }

  function scrollIntoViewGently(node, block = 'nearest') {
    const rect = node.getBoundingClientRect();
    const margin = 80;
    if (rect.top >= margin && rect.bottom <= window.innerHeight - margin) return;
    node.scrollIntoView({ block, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  }

  return {
    destroy() {
      for (const off of offs) off();
      audio.pause();
      if (dialog.open) dialog.close();
    },

    renderLoading() {
      page.setAttribute('aria-busy', 'true');
      titleInput.value = '';
      titleInput.placeholder = 'Loading…';
    },

    renderMissing(message) {
      audio.pause();
      replace(page,
        el('a', { class: 'back-link', href: links.notes() }, '← All notes'),
        el('div', { class: 'empty-state' }, el('h1', null, 'Note not available'), el('p', null, message)));
      page.removeAttribute('aria-busy');
    },

    renderNote(note) {
      page.dataset.id = note.id;
      page.removeAttribute('aria-busy');
      titleInput.placeholder = 'Untitled note';
      if (!editing) titleInput.value = note.title || '';
      date.dateTime = note.createdAt || '';
      date.title = formatFullDate(note.createdAt);
      setText(date, formatDate(note.createdAt));
      setText(length, formatDuration(note.duration));
      setText(fileName, note.originalFileName || '');
      fileName.hidden = !note.originalFileName;
      this.renderState(note);

      const working = WORKING.has(note.state);
      if (note.summary) {
        summary.classList.remove('muted');
        setText(summary, note.summary);
      } else {
        summary.classList.add('muted');
        setText(summary, working ? 'The summary appears once the note is analysed.' : 'No summary.');
      }
      const pending = working ? 'Found once the note is analysed.' : 'None.';
      chips(tags, tagsEmpty, note.tags || [], pending);
      chips(people, peopleEmpty, note.people || [], pending);
      this.renderTasks(note.actionItems || [], working ? 'Found once the note is analysed.' : 'No action items.');

      replace(exportLinks, ...EXPORTS.map(({ format, label }) =>
        el('li', null, el('a', {
          href: handlers.exportURL(format), download: true, class: 'export-link',
          'data-testid': 'export-link', 'data-format': format, 'aria-label': `Export as ${label}`,
        }, label))));
    },

    renderState(summaryData) {
      badge.dataset.state = summaryData.state;
      setText(badge, describeState(summaryData));
      const hasProgress = typeof summaryData.progress === 'number' && WORKING.has(summaryData.state);
      progress.hidden = !hasProgress;
      if (hasProgress) progress.value = summaryData.progress;
      const failed = summaryData.state === 'failed';
      failure.hidden = !failed;
      setText(qs('.note-error', failure), failed ? (summaryData.error || 'Processing failed.') : '');
      setText(length, formatDuration(summaryData.duration));
    },

    setTitle(title) {
      if (!editing) titleInput.value = title || '';
    },

    /** The notes closest in meaning (search hits); the section stays hidden when there are none. */
    renderRelated(hits) {
      replace(relatedList, ...hits.map((hit) => {
        const other = hit.note || {};
        const start = typeof hit.segmentStart === 'number' ? hit.segmentStart : undefined;
        const text = (hit.snippet || []).map((run) => run.text).join('').trim();
        return el('li', { class: 'related-item', 'data-testid': 'related-note', 'data-id': other.id },
          el('a', { href: links.note(other.id, start), class: 'result-link', 'data-testid': 'related-link' },
            el('span', { class: 'result-title' }, displayTitle(other)),
            el('span', { class: 'result-meta' },
              start === undefined ? '' : `at ${formatDuration(start)} · `, formatDate(other.createdAt)),
            text ? el('p', { class: 'snippet' }, text) : null));
      }));
      related.hidden = hits.length === 0;
    },

    renderTasks(items, emptyText) {
      replace(tasks, ...items.map((item) => {
        const boxID = `task-${item.id}`;
        return el('li', { class: 'task', 'data-id': item.id },
          el('input', { type: 'checkbox', id: boxID, 'data-testid': 'task-checkbox', 'data-id': item.id, checked: Boolean(item.done) }),
          el('label', { for: boxID, class: 'task-text' }, item.task),
          (item.people || []).length
            ? el('span', { class: 'task-people' }, ...(item.people || []).map((p) => el('span', { class: 'chip small' }, p)))
            : null);
      }));
      tasks.hidden = items.length === 0;
      tasksEmpty.hidden = items.length > 0;
      if (emptyText) setText(tasksEmpty, emptyText);
    },

    setTaskChecked(itemID, done) {
      const box = qsa('[data-testid="task-checkbox"]', tasks).find((n) => n.dataset.id === itemID);
      if (box) box.checked = done;
    },

    renderTranscript(data, state) {
      playing = -1;
      const segments = data && Array.isArray(data.segments) ? data.segments : [];
      if (segments.length === 0) {
        segmentNodes = [];
        let message = 'Nothing was said in this recording.';
        if (!data) {
          message = {
            recording: 'Recording… the transcript follows when it stops.',
            saved: 'Waiting to be transcribed.',
            transcribing: 'Transcribing…',
            failed: 'There is no transcript yet: processing failed.',
          }[state] || 'There is no transcript yet.';
        }
        replace(transcript, el('p', { class: 'muted' }, message));
        return;
      }
      segmentNodes = segments.map((segment) =>
        el('div', {
          class: 'segment', 'data-testid': 'segment', 'data-start': String(segment.start), 'data-end': String(segment.end),
        },
        el('button', { type: 'button', class: 'segment-time', 'aria-label': `Play from ${formatDuration(segment.start)}` }, formatDuration(segment.start)),
        el('p', { class: 'segment-text' },
          segment.speaker
            ? el('button', {
              type: 'button', class: 'segment-speaker', 'data-testid': 'segment-speaker',
              'data-number': String(segment.speakerNumber), 'data-named': String(!/^Speaker \d+$/.test(segment.speaker)),
              title: 'Click to say who this is',
            }, segment.speaker)
            : null,
          segment.speaker ? ' ' : null,
          (segment.text || '').trim())));
      replace(transcript, ...segmentNodes);
      if (data.language) transcript.lang = data.language;
    },

    /** Lights segment `index` (or none for −1) and, if asked, scrolls it into view. */
    highlight(index, { scroll = true, force = false } = {}) {
      if (index === playing && !force) return;
      if (playing >= 0 && segmentNodes[playing]) {
        segmentNodes[playing].classList.remove('playing');
        segmentNodes[playing].removeAttribute('aria-current');
      }
      playing = index;
      const node = segmentNodes[index];
      if (!node) return;
      node.classList.add('playing');
      node.setAttribute('aria-current', 'true');
      if (scroll && (force || Date.now() - lastManualScroll > 4000)) scrollIntoViewGently(node, force ? 'center' : 'nearest');
    },

    setAudio(url) {
      const absolute = new URL(url, window.location.href).href;
      if (audio.src !== absolute) audio.src = url;
    },

    reloadAudio() {
      if (!audio.paused) return;
      const time = audio.currentTime;
      audio.load();
      if (time > 0) pendingSeek = time;
    },

    seek(time, play) {
      if (audio.readyState >= 1) audio.currentTime = time;
      else pendingSeek = time;
      if (play) {
        const attempt = audio.play();
        if (attempt && attempt.catch) attempt.catch(() => {});
      }
    },

    confirmDelete(title) {
      setText(confirmText, `“${title}” and its recording will be deleted. This can’t be undone.`);
      return new Promise((resolve) => {
        dialog.returnValue = '';
        const offClose = on(dialog, 'close', () => {
          offClose();
          resolve(dialog.returnValue === 'delete');
          deleteButton.focus();
        });
        dialog.showModal();
        confirmNo.focus();
      });
    },

    setBusyDeleting(busy) {
      deleteButton.disabled = busy;
      setText(deleteButton, busy ? 'Deleting…' : 'Delete note…');
    },
  };
}

// Controller

export function createNoteScreen({ api, events, toast, navigate, setTitle }) {
  let view = null;
  let noteID = null; // as in the address (may be a prefix)
  let note = null;
  let segments = [];
  let offs = [];
  let fetching = null;
  let fetchAgain = false;
  let deleting = false;
  let startAt = null;
  let audioState = null;
  let transcriptKey = null;
  let relatedKey = null;

  function reset() {
    for (const off of offs) off();
    offs = [];
    if (view) view.destroy();
    view = null;
    note = null;
    segments = [];
    fetching = null;
    fetchAgain = false;
    deleting = false;
    audioState = null;
    transcriptKey = null;
    relatedKey = null;
  }

  // Related notes: asked for once the note is loaded, and again when it finishes processing
  // (its passages are indexed last). A failure only leaves the section hidden.
  async function loadRelated(current) {
    const key = `${current.id}:${current.state === 'done'}`;
    if (key === relatedKey) return;
    relatedKey = key;
    const currentView = view;
    try {
      const answer = await api.relatedNotes(current.id);
      if (view !== currentView || !view || relatedKey !== key) return;
      view.renderRelated((answer && answer.results) || []);
    } catch {
      if (view === currentView && view) view.renderRelated([]);
    }
  }

  function show(next) {
    note = next;
    setTitle(displayTitle(note));
    view.renderNote(note);
    view.setAudio(note.audioURL || `/api/notes/${encodeURIComponent(note.id)}/audio`);
    // A recording that just ended has more audio than the player loaded.
    if (audioState === 'recording' && note.state !== 'recording') view.reloadAudio();
    audioState = note.state;
    const list = note.transcript && Array.isArray(note.transcript.segments) ? note.transcript.segments : [];
    const key = list.length ? JSON.stringify(list) : `empty:${note.transcript ? 'transcript' : 'none'}:${note.state}`;
    if (key !== transcriptKey) {
      transcriptKey = key;
      segments = list;
      view.renderTranscript(note.transcript, note.state);
    }
    loadRelated(note);
    if (startAt !== null) {
      const t = startAt;
      startAt = null;
      view.seek(t, false);
      view.highlight(segmentAt(segments, t), { force: true });
    }
  }

  async function load() {
    if (fetching) {
      fetchAgain = true;
      return fetching;
    }
    const currentView = view;
    fetching = (async () => {
      try {
        const fresh = await api.getNote(noteID);
        if (view !== currentView || !view) return;
        show(fresh);
      } catch (error) {
        if (view !== currentView || !view) return;
        if (error.status === 404) view.renderMissing('This note doesn’t exist. It may have been deleted.');
        else if (!note) view.renderMissing(`It couldn’t be loaded: ${error.message}`);
        else toast(`Couldn’t refresh the note: ${error.message}`, { tone: 'error' });
      } finally {
        fetching = null;
        if (fetchAgain && view === currentView && view) {
          fetchAgain = false;
          load();
        }
      }
    })();
    return fetching;
  }

  function onNoteEvent(summary) {
    if (!note || !summary || summary.id !== note.id) return;
    const changed = summary.state !== note.state || summary.stage !== note.stage || summary.title !== note.title
      || JSON.stringify(summary.tags || []) !== JSON.stringify(note.tags || []);
    Object.assign(note, summary);
    view.renderState(note);
    if (changed) load();
  }

  function onDeleted(data) {
    if (!note || !data || data.id !== note.id || deleting) return;
    view.renderMissing('This note was deleted.');
    note = null;
    toast('This note was deleted elsewhere.');
  }

  const handlers = {
    exportURL: (format) => api.exportURL(note.id, format),

    revertTitle() {
      if (note) view.setTitle(note.title);
    },

    async rename(value) {
      if (!note) return;
      const title = value.trim();
      if (title === (note.title || '').trim()) {
        view.setTitle(note.title);
        return;
      }
      if (title.length === 0) {
        view.setTitle(note.title);
        toast('A title can’t be empty; the old one is back.', { tone: 'error' });
        return;
      }
      if (title.length > 200) {
        toast('A title can be at most 200 characters.', { tone: 'error' });
        return;
      }
      const before = note.title;
      note.title = title;
      view.setTitle(title);
      try {
        const saved = await api.renameNote(note.id, title);
        if (!note) return;
        note.hasCustomTitle = saved.hasCustomTitle;
        note.title = saved.title;
        view.setTitle(saved.title);
        setTitle(displayTitle(saved));
        toast('Title saved.');
      } catch (error) {
        if (!note) return;
        note.title = before;
        view.setTitle(before);
        toast(`The title wasn’t saved: ${error.message}`, { tone: 'error' });
      }
    },

    async nameSpeaker(number, name) {
      if (!note) return;
      const speaker = (note.speakers || []).find((s) => s.number === number);
      const unnaming = name.length === 0;
      if (unnaming && !(speaker && speaker.name)) {
        transcriptKey = null;
        show(note);
        return;
      }
      try {
        const saved = await api.nameSpeaker(note.id, number, unnaming ? null : name);
        if (!note) return;
        transcriptKey = null;
        show(saved);
        toast(unnaming ? `Speaker ${number} is nobody named now.` : `Speaker ${number} is ${name}; the voice is remembered.`);
      } catch (error) {
        toast(`The speaker wasn’t named: ${error.message}`, { tone: 'error' });
      }
    },

    async retry() {
      if (!note) return;
      try {
        show(await api.retryNote(note.id));
        toast('Trying again.');
      } catch (error) {
        toast(error.message, { tone: 'error' });
      }
    },

    async delete() {
      if (!note || deleting) return;
      const confirmed = await view.confirmDelete(displayTitle(note));
      if (!confirmed || !note) return;
      deleting = true;
      view.setBusyDeleting(true);
      const title = displayTitle(note);
      try {
        await api.deleteNote(note.id);
        toast(`Deleted “${title}”.`);
        navigate(links.notes());
      } catch (error) {
        deleting = false;
        if (view) view.setBusyDeleting(false);
        toast(`The note wasn’t deleted: ${error.message}`, { tone: 'error' });
      }
    },

    async toggleTask(itemID, done) {
      const item = note && (note.actionItems || []).find((i) => i.id === itemID);
      if (!item) return;
      item.done = done;
      try {
        const answer = await api.setTaskDone(itemID, done);
        if (answer && answer.item) Object.assign(item, answer.item);
      } catch (error) {
        item.done = !done;
        if (view) view.setTaskChecked(itemID, !done);
        toast(`The action item wasn’t updated: ${error.message}`, { tone: 'error' });
      }
    },

    seek(time, play) {
      if (!view || !Number.isFinite(time)) return;
      view.seek(time, play);
      view.highlight(segmentAt(segments, time), { scroll: false });
    },

    timeUpdate(time) {
      // The player's last timeupdate can arrive after the page was left.
      if (view) view.highlight(segmentAt(segments, time));
    },
  };

  function parseStart(route) {
    const t = Number.parseFloat(route.query.t);
    return Number.isFinite(t) && t >= 0 ? t : null;
  }

  return {
    mount(container, route) {
      noteID = route.params.id;
      startAt = parseStart(route);
      view = createNoteView(container, handlers);
      view.renderLoading();
      offs = [
        events.on('note', onNoteEvent),
        events.on('deleted', onDeleted),
        events.on('library', () => note && load()),
        events.on('resync', () => note && load()),
      ];
      load();
    },
    update(route, remount) {
      if (route.params.id !== noteID) {
        remount();
        return;
      }
      const t = parseStart(route);
      if (t !== null && view) {
        if (note) {
          view.seek(t, false);
          view.highlight(segmentAt(segments, t), { force: true });
        } else {
          startAt = t;
        }
      }
    },
    unmount() {
      reset();
    },
  };
}
