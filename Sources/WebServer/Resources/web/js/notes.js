// The notes list (#/): paged rows that follow the server's events, recording with a live
// transcript, importing files (picker or drag and drop) and restoring the sample notes.

import { el, on, delegate, qs, replace, setText, toggleAttr } from './dom.js';
import { formatDate, formatFullDate, formatDuration, formatPercent, formatSize, describeState, displayTitle } from './format.js';
import { links } from './router.js';
import { languageModelProblem } from './store.js';
import { languageModelBanner } from './shell.js';

const PAGE = 50;
const RELOAD_PAGE = 200;
const ACCEPT = [
  'audio/*', 'video/*',
  '.wav', '.wave', '.mp3', '.m4a', '.m4b', '.aac', '.flac', '.ogg', '.oga', '.opus', '.webm', '.weba',
  '.caf', '.aif', '.aiff', '.amr', '.3gp', '.wma', '.mp4', '.m4v', '.mov', '.mkv', '.avi',
].join(',');

/** The NoteSummary fields of a Note (the list keeps no transcripts). */
export function summaryOf(note) {
  const { id, title, createdAt, duration, originalFileName, tags, state, stage, progress, error } = note;
  return { id, title, createdAt, duration, originalFileName, tags: tags || [], state, stage, progress, error };
}

/** Applies one `live` event to {finals, volatile} (arrays of {start, end, text}). */
export function applyLiveResult(live, result) {
  const start = Number(result.start) || 0;
  const end = Math.max(start, Number(result.end) || start);
  const text = String(result.text || '').trim();
  if (result.final) {
    // A final result fixes its span: volatile text inside it is gone.
    live.volatile = live.volatile.filter((v) => v.start >= end - 0.001);
    if (text) {
      const at = live.finals.findIndex((f) => f.start > start);
      const entry = { start, end, text };
      if (at === -1) live.finals.push(entry);
      else live.finals.splice(at, 0, entry);
    }
  } else {
    // A volatile result replaces the earlier volatile text from its start on.
    live.volatile = live.volatile.filter((v) => v.start < start - 0.001);
    if (text) live.volatile.push({ start, end, text });
  }
  return live;
}

// View: the only part of this screen that touches the DOM.

function createNotesView(container, handlers) {
  const rows = new Map();

  const recordButton = el('button', { type: 'button', class: 'btn record-button', 'data-testid': 'record-button' }, 'Record');
  const recordTime = el('span', { class: 'record-time', 'data-testid': 'record-time', hidden: true, role: 'timer', 'aria-label': 'Recording time' }, '0:00');
  const recordNote = el('span', { class: 'record-note muted', hidden: true });
  const recordLine = el('p', { class: 'inline-error', role: 'alert', hidden: true });
  const liveCaption = el('p', { class: 'live-caption' }, 'Live transcript');
  const liveText = el('p', { class: 'live-text' });
  const livePanel = el('div', { class: 'live-transcript', 'data-testid': 'live-transcript', 'aria-live': 'polite', hidden: true },
    liveCaption, liveText);

  const importInput = el('input', {
    type: 'file', multiple: true, accept: ACCEPT, class: 'visually-hidden', 'data-testid': 'import-input', id: 'import-input',
  });
  const importLabel = el('label', { class: 'btn file-button', for: 'import-input' }, 'Import files…');
  const restoreButton = el('button', { type: 'button', class: 'btn quiet', 'data-testid': 'restore-samples' }, 'Restore sample notes');

  const bannerSlot = el('div', { class: 'banner-slot' });
  const uploadsList = el('ul', { class: 'uploads', 'aria-label': 'Imports' });
  const uploadsClear = el('button', { type: 'button', class: 'btn quiet small' }, 'Clear finished');
  const uploadsPanel = el('section', { class: 'uploads-panel', hidden: true, 'aria-label': 'Imports' },
    el('div', { class: 'uploads-head' }, el('h2', null, 'Imports'), uploadsClear), uploadsList);

  const count = el('p', { class: 'list-count', 'aria-live': 'polite' });
  const list = el('ol', { class: 'notes-list', 'data-testid': 'notes-list', 'aria-label': 'Notes, newest first' });
  const empty = el('div', { class: 'empty-state', hidden: true },
    el('h2', null, 'No notes yet'),
    el('p', null, 'Press ', el('strong', null, 'Record'), ' to capture a voice note with the microphone, ',
      el('strong', null, 'import'), ' recordings (choose files, or drop them anywhere on this page), or ',
      el('strong', null, 'restore the sample notes'), ' to look around.'));
  const listStatus = el('div', { class: 'list-status', 'aria-live': 'polite' });
  const sentinel = el('div', { class: 'sentinel', 'aria-hidden': 'true' });
  const dropHint = el('div', { class: 'drop-hint', 'aria-hidden': 'true' }, el('p', null, 'Drop recordings to import them'));

  const screen = el('section', { class: 'screen notes-screen', 'data-testid': 'drop-zone', 'aria-labelledby': 'notes-heading' },
    el('div', { class: 'screen-head' },
      el('h1', { id: 'notes-heading' }, 'Notes'),
      count),
    bannerSlot,
    el('div', { class: 'toolbar' },
      el('div', { class: 'recorder' }, recordButton, recordTime, recordNote),
      el('div', { class: 'toolbar-end' }, importInput, importLabel, restoreButton)),
    recordLine,
    livePanel,
    uploadsPanel,
    list,
    empty,
    listStatus,
    sentinel,
    dropHint);
  container.append(screen);

  // Rows

  function buildRow(note) {
    const link = el('a', { class: 'note-link', href: links.note(note.id) },
      el('span', { class: 'note-title', 'data-testid': 'note-title' }),
      el('span', { class: 'note-meta' },
        el('time', { class: 'note-date' }),
        el('span', { class: 'note-length' }),
        el('span', { class: 'note-file' }),
        el('span', { class: 'note-tags-inline' })));
    const row = el('li', { class: 'note-row', 'data-testid': 'note-row', 'data-id': note.id },
      link,
      el('span', { class: 'badge', 'data-testid': 'note-state' }),
      el('div', { class: 'note-failure', hidden: true }));
    fillRow(row, note);
    rows.set(note.id, row);
    return row;
  }

  function fillRow(row, note) {
    row.dataset.state = note.state;
    setText(qs('.note-title', row), displayTitle(note));
    const time = qs('.note-date', row);
    time.dateTime = note.createdAt || '';
    time.title = formatFullDate(note.createdAt);
    setText(time, formatDate(note.createdAt));
    setText(qs('.note-length', row), formatDuration(note.duration));
    setText(qs('.note-file', row), note.originalFileName || '');
    const tags = (note.tags || []).slice(0, 3).map((tag) => `#${tag}`).join(' ');
    setText(qs('.note-tags-inline', row), tags);
    const badge = qs('.badge', row);
    badge.dataset.state = note.state;
    setText(badge, describeState(note));
    const failure = qs('.note-failure', row);
    const failed = note.state === 'failed';
    failure.hidden = !failed;
    const message = failed ? (note.error || 'Processing failed.') : '';
    if (!failed) {
      if (failure.firstChild) failure.replaceChildren();
    } else if (!failure.firstChild) {
      replace(failure,
        el('span', { class: 'note-error' }, message),
        el('button', { type: 'button', class: 'btn small', 'data-testid': 'note-retry', 'aria-label': `Retry “${displayTitle(note)}”` }, 'Retry'));
    } else {
      setText(qs('.note-error', failure), message);
    }
  }

  // Uploads

  const uploadRows = new Map();

  function buildUpload(upload) {
    const progress = el('progress', { 'data-testid': 'upload-progress', max: '1', value: '0', 'aria-label': `Uploading ${upload.name}` });
    const row = el('li', { class: 'upload', 'data-uid': String(upload.uid) },
      el('div', { class: 'upload-line' },
        el('span', { class: 'upload-name' }, upload.name),
        el('span', { class: 'upload-size' }, formatSize(upload.size)),
        el('span', { class: 'upload-status' }),
        el('button', { type: 'button', class: 'icon-button upload-dismiss', 'aria-label': `Dismiss ${upload.name}` }, '×')),
      progress,
      el('p', { class: 'upload-error', 'data-testid': 'upload-error', hidden: true }));
    uploadRows.set(upload.uid, row);
    fillUpload(row, upload);
    return row;
  }

  function fillUpload(row, upload) {
    row.dataset.state = upload.state;
    const progress = qs('progress', row);
    progress.value = upload.state === 'done' ? 1 : upload.fraction;
    const status = {
      waiting: 'Waiting',
      uploading: upload.fraction >= 1 ? 'Reading the audio…' : `Uploading ${formatPercent(upload.fraction)}`,
      done: 'Imported',
      error: 'Not imported',
    }[upload.state];
    setText(qs('.upload-status', row), status);
    const dismiss = qs('.upload-dismiss', row);
    dismiss.setAttribute('aria-label', `${upload.state === 'waiting' || upload.state === 'uploading' ? 'Cancel' : 'Dismiss'} ${upload.name}`);
    const error = qs('.upload-error', row);
    error.hidden = upload.state !== 'error';
    setText(error, upload.state === 'error' ? upload.error : '');
  }

  function refreshUploadsPanel() {
    uploadsPanel.hidden = uploadRows.size === 0;
  }

  // Bindings

  on(recordButton, 'click', () => handlers.toggleRecording());
  on(importInput, 'change', () => {
    const files = Array.from(importInput.files || []);
    importInput.value = '';
    if (files.length) handlers.importFiles(files);
  });
  on(restoreButton, 'click', () => handlers.restoreSamples());
  on(uploadsClear, 'click', () => handlers.clearUploads());
  delegate(uploadsList, '.upload-dismiss', 'click', (event, button) => {
    handlers.dismissUpload(Number(button.closest('.upload').dataset.uid));
  });
  delegate(list, '[data-testid="note-retry"]', 'click', (event, button) => {
    handlers.retry(button.closest('[data-testid="note-row"]').dataset.id);
  });
  // The whole row opens the note, not only its link.
  delegate(list, '[data-testid="note-row"]', 'click', (event, row) => {
    if (event.target.closest('a, button, input')) return;
    handlers.open(row.dataset.id);
  });
  delegate(listStatus, '.list-retry', 'click', () => handlers.loadMore());

  let dragDepth = 0;
  const hasFiles = (event) => Array.from(event.dataTransfer ? event.dataTransfer.types : []).includes('Files');
  on(screen, 'dragenter', (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    dragDepth += 1;
    screen.classList.add('dragging');
  });
  on(screen, 'dragover', (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  });
  on(screen, 'dragleave', () => {
    dragDepth = Math.max(0, dragDepth - 1);
    if (dragDepth === 0) screen.classList.remove('dragging');
  });
  on(screen, 'drop', (event) => {
    event.preventDefault();
    dragDepth = 0;
    screen.classList.remove('dragging');
    const files = Array.from((event.dataTransfer && event.dataTransfer.files) || []);
    if (files.length) handlers.importFiles(files);
  });

  const observer = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) handlers.loadMore();
  }, { rootMargin: '800px 0px' });
  observer.observe(sentinel);

  return {
    destroy() {
      observer.disconnect();
    },

    /** Re-observing makes the observer report again if the sentinel is still in view after a page. */
    rearmSentinel() {
      observer.unobserve(sentinel);
      observer.observe(sentinel);
    },

    setRows(notes) {
      rows.clear();
      const fragment = document.createDocumentFragment();
      for (const note of notes) fragment.append(buildRow(note));
      list.replaceChildren(fragment);
    },

    appendRows(notes) {
      const fragment = document.createDocumentFragment();
      for (const note of notes) fragment.append(buildRow(note));
      list.append(fragment);
    },

    insertRow(note, beforeID) {
      const row = buildRow(note);
      row.classList.add('arrived');
      const before = beforeID && rows.get(beforeID);
      if (before) list.insertBefore(row, before);
      else list.append(row);
    },

    updateRow(note) {
      const row = rows.get(note.id);
      if (row) fillRow(row, note);
    },

    removeRow(id) {
      const row = rows.get(id);
      if (!row) return;
      const hadFocus = row.contains(document.activeElement);
      const neighbour = row.nextElementSibling || row.previousElementSibling;
      row.remove();
      rows.delete(id);
      if (hadFocus && neighbour) qs('.note-link', neighbour).focus();
    },

    renderListState({ loaded, loading, error, count: shown, total, hasMore }) {
      empty.hidden = !(loaded && shown === 0 && !loading && !error);
      setText(count, loaded && total > 0 ? `${total.toLocaleString()} ${total === 1 ? 'note' : 'notes'}` : '');
      toggleAttr(list, 'aria-busy', loading);
      if (error) {
        replace(listStatus,
          el('p', { class: 'inline-error' }, `Couldn’t load notes. ${error}`),
          el('button', { type: 'button', class: 'btn small list-retry' }, 'Try again'));
      } else if (loading) {
        replace(listStatus, el('p', { class: 'muted' }, 'Loading notes…'));
      } else if (loaded && shown > 0 && !hasMore && total > PAGE) {
        replace(listStatus, el('p', { class: 'muted' }, 'That’s every note.'));
      } else {
        listStatus.replaceChildren();
      }
    },

    renderBanner(problem) {
      if (problem) replace(bannerSlot, languageModelBanner(problem, { compact: true }));
      else bannerSlot.replaceChildren();
    },

    renderRecorder(state) {
      const active = state.phase === 'recording' || state.phase === 'stopping';
      setText(recordButton, active ? 'Stop' : 'Record');
      recordButton.classList.toggle('recording', active);
      recordButton.disabled = state.phase === 'starting' || state.phase === 'stopping';
      toggleAttr(recordButton, 'aria-busy', state.phase === 'starting' || state.phase === 'stopping');
      recordButton.setAttribute('aria-label', active ? 'Stop recording' : 'Record a new note');
      recordTime.hidden = !active;
      setText(recordTime, formatDuration(state.seconds));
      let note = '';
      if (state.phase === 'stopping') note = 'Saving…';
      else if (active && state.pendingSeconds > 2) note = `${Math.round(state.pendingSeconds)} s waiting to be sent`;
      recordNote.hidden = !note;
      setText(recordNote, note);
      const message = state.error || state.warning || '';
      recordLine.hidden = !message;
      setText(recordLine, message);
    },

    renderLive(live, recording) {
      livePanel.hidden = live.recordingID === null;
      setText(liveCaption, recording ? 'Live transcript' : 'Live transcript of the last recording (the full transcript follows)');
      const parts = [];
      for (const f of live.finals) parts.push(el('span', { class: 'final' }, `${f.text} `));
      for (const v of live.volatile) parts.push(el('span', { class: 'volatile' }, `${v.text} `));
      if (parts.length === 0) parts.push(el('span', { class: 'muted' }, recording ? 'Listening…' : 'Nothing was heard.'));
      replace(liveText, ...parts);
      liveText.scrollTop = liveText.scrollHeight;
    },

    renderRestoreBusy(busy) {
      restoreButton.disabled = busy;
      setText(restoreButton, busy ? 'Restoring…' : 'Restore sample notes');
    },

    addUpload(upload) {
      uploadsList.append(buildUpload(upload));
      refreshUploadsPanel();
    },

    updateUpload(upload) {
      const row = uploadRows.get(upload.uid);
      if (row) fillUpload(row, upload);
    },

    removeUpload(uid) {
      const row = uploadRows.get(uid);
      if (row) row.remove();
      uploadRows.delete(uid);
      refreshUploadsPanel();
    },

    scrollY: () => window.scrollY,
    restoreScroll(y) {
      if (y > 0) requestAnimationFrame(() => window.scrollTo(0, y));
    },
  };
}

// Controller: the list's state and rules; talks to the view only through its methods.

export function createNotesScreen({ api, events, store, recorder, toast, navigate }) {
  const model = {
    notes: [], // newest first
    byId: new Map(),
    next: null,
    total: 0,
    loaded: false,
    loading: false,
    error: null,
    generation: 0,
    stale: false,
  };
  const live = { recordingID: null, finals: [], volatile: [] };
  const uploads = new Map();
  const uploadQueue = [];
  let uploading = false;
  let uploadCounter = 0;
  let restoring = false;
  let view = null;
  let unsubscribe = [];
  let savedScroll = 0;

  function renderListState() {
    if (!view) return;
    view.renderListState({
      loaded: model.loaded,
      loading: model.loading,
      error: model.error,
      count: model.notes.length,
      total: model.total,
      hasMore: model.next !== null,
    });
  }

  // Paging

  async function loadMore() {
    if (model.loading || (model.loaded && model.next === null && !model.error)) return;
    const generation = model.generation;
    model.loading = true;
    model.error = null;
    renderListState();
    try {
      const page = await api.listNotes({ limit: PAGE, before: model.loaded ? model.next : undefined });
      if (generation !== model.generation) return;
      const fresh = [];
      for (const note of page.notes || []) {
        const known = model.byId.get(note.id);
        if (known) {
          Object.assign(known, note);
          if (view) view.updateRow(known);
        } else {
          model.byId.set(note.id, note);
          model.notes.push(note);
          fresh.push(note);
        }
      }
      model.next = page.next ?? null;
      model.total = typeof page.total === 'number' ? page.total : model.notes.length;
      model.loaded = true;
      if (view) view.appendRows(fresh);
    } catch (error) {
      if (generation === model.generation) model.error = error.message;
    } finally {
      if (generation === model.generation) {
        model.loading = false;
        renderListState();
        if (view && !model.error) view.rearmSentinel();
      }
    }
  }

  /** Reloads what is loaded (after a `library` event or a lost connection). */
  async function reload() {
    if (!model.loaded) return;
    if (!view) {
      model.stale = true;
      return;
    }
    const generation = ++model.generation;
    const wanted = Math.max(PAGE, model.notes.length);
    model.loading = true;
    renderListState();
    try {
      const notes = [];
      let before;
      let next = null;
      let total = 0;
      do {
        const page = await api.listNotes({ limit: Math.min(RELOAD_PAGE, wanted - notes.length), before });
        if (generation !== model.generation) return;
        notes.push(...(page.notes || []));
        next = page.next ?? null;
        total = page.total;
        before = next;
      } while (next !== null && notes.length < wanted);
      model.notes = [];
      model.byId = new Map();
      for (const note of notes) {
        if (model.byId.has(note.id)) continue;
        model.byId.set(note.id, note);
        model.notes.push(note);
      }
      model.next = next;
      model.total = typeof total === 'number' ? total : model.notes.length;
      model.error = null;
      model.stale = false;
      if (view) view.setRows(model.notes);
    } catch (error) {
      if (generation === model.generation) model.error = error.message;
    } finally {
      if (generation === model.generation) {
        model.loading = false;
        renderListState();
        if (view) view.rearmSentinel();
      }
    }
  }

  // Live changes

  function upsert(summary) {
    if (!summary || !summary.id || !model.loaded) return;
    const known = model.byId.get(summary.id);
    if (known) {
      Object.assign(known, summary);
      if (view) view.updateRow(known);
      return;
    }
    const created = Date.parse(summary.createdAt);
    let at = model.notes.findIndex((note) => Date.parse(note.createdAt) < created);
    if (at === -1) {
      // Older than every loaded note: a later page will bring it.
      if (model.next !== null) return;
      at = model.notes.length;
    }
    const note = { ...summary };
    model.notes.splice(at, 0, note);
    model.byId.set(note.id, note);
    model.total += 1;
    if (view) view.insertRow(note, model.notes[at + 1] ? model.notes[at + 1].id : null);
    renderListState();
  }

  function remove(id) {
    const known = model.byId.get(id);
    if (!known) return;
    model.byId.delete(id);
    model.notes.splice(model.notes.indexOf(known), 1);
    model.total = Math.max(0, model.total - 1);
    if (view) view.removeRow(id);
    renderListState();
  }

  // Recording

  function onRecorder(state, happening) {
    const recording = state.phase !== 'idle';
    if (store.get().recording !== recording) store.set({ recording });
    if (happening && happening.type === 'started') {
      live.recordingID = state.recordingID;
      live.finals = [];
      live.volatile = [];
      if (happening.note) upsert(happening.note);
    }
    if (happening && happening.type === 'stopped') {
      if (happening.note) upsert(summaryOf(happening.note));
      if (state.error) toast(state.error, { tone: 'error' });
      else toast('Recording saved. It will be transcribed now.');
    }
    if (view) {
      view.renderRecorder(state);
      if (happening) view.renderLive(live, state.phase !== 'idle');
    }
  }

  function onLive(result) {
    if (!result || live.recordingID === null || result.recordingID !== live.recordingID) return;
    applyLiveResult(live, result);
    if (view) view.renderLive(live, recorder.get().phase !== 'idle');
  }

  function toggleRecording() {
    const phase = recorder.get().phase;
    if (phase === 'idle') recorder.start();
    else if (phase === 'recording') recorder.stop();
  }

  // Import

  function importFiles(files) {
    for (const file of files) {
      uploadCounter += 1;
      const upload = { uid: uploadCounter, file, name: file.name || 'recording', size: file.size, state: 'waiting', fraction: 0, error: null, abort: null };
      uploads.set(upload.uid, upload);
      uploadQueue.push(upload.uid);
      if (view) view.addUpload(upload);
    }
    runUploads();
  }

  async function runUploads() {
    if (uploading) return;
    uploading = true;
    while (uploadQueue.length) {
      const upload = uploads.get(uploadQueue.shift());
      if (!upload || upload.state !== 'waiting') continue;
      upload.state = 'uploading';
      if (view) view.updateUpload(upload);
      const { promise, abort } = api.importFile(upload.file, (fraction) => {
        upload.fraction = fraction;
        if (view) view.updateUpload(upload);
      });
      upload.abort = abort;
      try {
        const note = await promise;
        upload.state = 'done';
        upload.fraction = 1;
        if (note && note.id) upsert(summaryOf(note));
      } catch (error) {
        upload.state = 'error';
        upload.error = error.message;
      }
      upload.abort = null;
      upload.file = null;
      if (uploads.has(upload.uid) && view) view.updateUpload(upload);
    }
    uploading = false;
  }

  function dismissUpload(uid) {
    const upload = uploads.get(uid);
    if (!upload) return;
    if (upload.abort) upload.abort();
    uploads.delete(uid);
    if (view) view.removeUpload(uid);
  }

  function clearUploads() {
    for (const upload of [...uploads.values()]) {
      if (upload.state === 'done' || upload.state === 'error') dismissUpload(upload.uid);
    }
  }

  // Samples and retry

  async function restoreSamples() {
    if (restoring) return;
    restoring = true;
    if (view) view.renderRestoreBusy(true);
    try {
      const result = await api.restoreSamples();
      const imported = result.imported || [];
      for (const note of imported) upsert(note);
      const present = result.alreadyPresent || 0;
      if (imported.length === 0) {
        toast(present ? `All ${present} sample notes are already in your library.` : 'There were no sample notes to add.');
      } else {
        toast(`Added ${imported.length} sample ${imported.length === 1 ? 'note' : 'notes'}${present ? ` (${present} already there)` : ''}.`);
      }
    } catch (error) {
      toast(`Couldn’t restore the samples: ${error.message}`, { tone: 'error' });
    } finally {
      restoring = false;
      if (view) view.renderRestoreBusy(false);
    }
  }

  async function retry(id) {
    try {
      const note = await api.retryNote(id);
      upsert(summaryOf(note));
      toast(`Trying “${displayTitle(note)}” again.`);
    } catch (error) {
      toast(error.message, { tone: 'error' });
    }
  }

  // Always listening, so the list stays right while another screen is shown.
  events.on('note', upsert);
  events.on('deleted', (data) => remove(data.id));
  events.on('library', reload);
  events.on('resync', reload);
  events.on('live', onLive);
  recorder.subscribe(onRecorder);

  return {
    mount(container) {
      view = createNotesView(container, {
        toggleRecording, importFiles, restoreSamples, retry, dismissUpload, clearUploads, loadMore,
        open: (id) => navigate(links.note(id)),
      });
      view.renderRecorder(recorder.get());
      view.renderLive(live, recorder.get().phase !== 'idle');
      view.renderRestoreBusy(restoring);
      for (const upload of uploads.values()) view.addUpload(upload);
      view.renderBanner(languageModelProblem(store.get().status));
      unsubscribe = [store.watch('status', (status) => view && view.renderBanner(languageModelProblem(status)))];
      if (model.loaded) {
        view.setRows(model.notes);
        renderListState();
        view.restoreScroll(savedScroll);
        if (model.stale) reload();
      } else {
        renderListState();
        loadMore();
      }
    },
    unmount() {
      savedScroll = view ? view.scrollY() : 0;
      for (const off of unsubscribe) off();
      unsubscribe = [];
      if (view) view.destroy();
      view = null;
    },
  };
}
